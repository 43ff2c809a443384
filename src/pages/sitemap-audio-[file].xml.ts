import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// One file of the audio sitemap (the index lists them; paged by track id as the video sitemap is),
// read at request time: a newly approved track appears at once. A file without approved tracks does not exist.
export const GET: APIRoute = async ({ params, site, url, locals }) => {
  const file = /^[1-9]\d{0,8}$/.test(params.file ?? '') ? Number(params.file) : null;
  const tracks = file && locals.site ? await locals.site.sitemapAudio(file) : [];
  if (!tracks.length) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const origin = site?.origin ?? url.origin;
  const body = urlSet(tracks.map((track) => localizedUrls(origin, `/audio/ka${track.audioId}`, track.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
