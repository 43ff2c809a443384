import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// One file of the video sitemap (the index lists them), read at request time: a newly approved
// video appears at once, without a rebuild. A file without approved videos does not exist.
export const GET: APIRoute = async ({ params, site, url, locals }) => {
  const file = /^[1-9]\d{0,8}$/.test(params.file ?? '') ? Number(params.file) : null;
  const videos = file && locals.site ? await locals.site.sitemapVideos(file) : [];
  if (!videos.length) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const origin = site?.origin ?? url.origin;
  const body = urlSet(videos.map((v) => localizedUrls(origin, `/video/kv${v.videoId}`, v.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
