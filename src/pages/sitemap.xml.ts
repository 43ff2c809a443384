import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, sitemapIndex, videoSitemapPath } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, as many video sitemap files as the approved
// videos fill, each with the newest change in it, and the audio and photo files once there is something public in them.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const [videoFiles, tracks, [newestPhoto]] = await Promise.all([locals.site?.sitemapVideoFiles() ?? [], locals.site?.sitemapAudio() ?? [], locals.site?.sitemapPhotos(1) ?? []]);
  const audioFile = tracks.length ? [{ path: '/sitemap-audio.xml', lastmod: tracks[0].updated }] : [];
  const photoFile = newestPhoto ? [{ path: '/sitemap-photos.xml', lastmod: newestPhoto.updated }] : [];
  const body = sitemapIndex(origin, [{ path: '/sitemap-pages.xml' }, ...videoFiles.map((f) => ({ path: videoSitemapPath(f.file), lastmod: f.updated })), ...audioFile, ...photoFile]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
