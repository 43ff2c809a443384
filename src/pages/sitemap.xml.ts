import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, sitemapIndex, videoSitemapPath } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, as many video sitemap files as the approved
// videos fill, each with the newest change in it, and the photo sitemap once a post is public.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const videoFiles = (await locals.site?.sitemapVideoFiles()) ?? [];
  const [newestPhoto] = (await locals.site?.sitemapPhotos(1)) ?? [];
  const body = sitemapIndex(origin, [{ path: '/sitemap-pages.xml' }, ...videoFiles.map((f) => ({ path: videoSitemapPath(f.file), lastmod: f.updated })),
    ...(newestPhoto ? [{ path: '/sitemap-photos.xml', lastmod: newestPhoto.updated }] : [])]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
