import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

/** Posts in the photo sitemap: each is listed in ten languages, so 4000 keep it under 50,000 URLs. */
export const PHOTO_SITEMAP_POSTS = 4000;

// The photo sitemap (the index lists it once a post is public): the newest approved posts, read at request time.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const posts = locals.site ? await locals.site.sitemapPhotos(PHOTO_SITEMAP_POSTS) : [];
  if (!posts.length)
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const origin = site?.origin ?? url.origin;
  const body = urlSet(posts.map((p) => localizedUrls(origin, `/photo/kp${p.photoId}`, p.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
