import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, audioSitemapPath, sitemapIndex, videoSitemapPath } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, as many video and audio sitemap files as the
// approved videos and tracks fill, each with the newest change in it, and the photo file once there is a public post.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const [videoFiles, audioFiles, [newestPhoto]] = await Promise.all([
    locals.site?.sitemapVideoFiles() ?? [],
    locals.site?.sitemapAudioFiles() ?? [],
    locals.site?.sitemapPhotos(1) ?? [],
  ]);
  const photoFile = newestPhoto ? [{ path: '/sitemap-photos.xml', lastmod: newestPhoto.updated }] : [];
  const body = sitemapIndex(origin, [
    { path: '/sitemap-pages.xml' },
    ...videoFiles.map((f) => ({ path: videoSitemapPath(f.file), lastmod: f.updated })),
    ...audioFiles.map((f) => ({ path: audioSitemapPath(f.file), lastmod: f.updated })),
    ...photoFile,
  ]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
