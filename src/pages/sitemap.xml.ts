import type { APIRoute } from 'astro';
import { SITEMAP_HEADERS, sitemapIndex } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// The index: the static pages in every language, and every approved video (newest lastmod shown).
export const GET: APIRoute = async ({ site, url, locals }) => {
  const origin = site?.origin ?? url.origin;
  const [newest] = (await locals.site?.sitemapVideos(1)) ?? [];
  const body = sitemapIndex(origin, [{ path: '/sitemap-pages.xml' }, { path: '/sitemap-videos.xml', lastmod: newest?.updated }]);
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
};
