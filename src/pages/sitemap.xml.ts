import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, sitemapIndex, videoSitemapPath } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, as many video sitemap files as the approved
// videos fill, each with the newest change in it, and the audio tracks' file when there are any.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const [videoFiles, tracks] = await Promise.all([locals.site?.sitemapVideoFiles() ?? [], locals.site?.sitemapAudio() ?? []]);
  const audioFile = tracks.length ? [{ path: '/sitemap-audio.xml', lastmod: tracks[0].updated }] : [];
  const body = sitemapIndex(origin, [{ path: '/sitemap-pages.xml' }, ...videoFiles.map((f) => ({ path: videoSitemapPath(f.file), lastmod: f.updated })), ...audioFile]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
