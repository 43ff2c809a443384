import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The audio tracks' sitemap (the newest approved ones, as many as one sitemap file holds), read
// at request time: a newly approved track appears at once. Without tracks it does not exist.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const tracks = (await locals.site?.sitemapAudio()) ?? [];
  if (!tracks.length) return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const origin = site?.origin ?? url.origin;
  const body = urlSet(tracks.map((track) => localizedUrls(origin, `/audio/ka${track.audioId}`, track.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
