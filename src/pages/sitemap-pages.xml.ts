import type { APIRoute } from 'astro';
import { STATIC_ROUTES } from '../lib/navigation/routes.ts';
import { SITEMAP_HEADERS, localizedUrls, urlSet } from '../lib/navigation/sitemap.ts';

export const prerender = false;

// Public, indexable static routes (search results and private pages stay out).
const INDEXABLE = STATIC_ROUTES.filter(
  (r) => !/^\/(settings|dev|error|unsupported|offline|user$|history|upload)/.test(r),
);

export const GET: APIRoute = ({ site, url }) => {
  const origin = site?.origin ?? url.origin;
  const body = urlSet(INDEXABLE.map((route) => localizedUrls(origin, route)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=3600' } });
};
