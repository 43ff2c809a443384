import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, sitemapIndex, videoSitemapPath } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, and as many video sitemap files as the
// approved videos fill, each with the newest change in it.
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const videoFiles = (await locals.site?.sitemapVideoFiles()) ?? [];
  const body = sitemapIndex(origin, [{ path: '/sitemap-pages.xml' }, ...videoFiles.map((f) => ({ path: videoSitemapPath(f.file), lastmod: f.updated }))]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
