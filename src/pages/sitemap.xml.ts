import type { APIRoute } from 'astro';
import { LOCALES, LOCALE_INFO, localizePath } from '../lib/i18n/locales.ts';
import { STATIC_ROUTES } from '../lib/navigation/routes.ts';

export const prerender = false;

// Public, indexable static routes; videos join this list with the video catalogue.
const INDEXABLE = STATIC_ROUTES.filter((r) => !/^\/(settings|dev|error|unsupported|user$)/.test(r));
const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

export const GET: APIRoute = ({ site, url }) => {
  const origin = site?.origin ?? url.origin;
  const locales = LOCALES.filter((l) => l !== 'ii');
  const entries = INDEXABLE.flatMap((route) =>
    locales.map((locale) => {
      const alternates = locales
        .map((alt) => `<xhtml:link rel="alternate" hreflang="${LOCALE_INFO[alt].htmlLang}" href="${escapeXml(origin + localizePath(route, alt))}"/>`)
        .join('');
      return `<url><loc>${escapeXml(origin + localizePath(route, locale))}</loc>${alternates}</url>`;
    }),
  );
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${entries.join('')}</urlset>`;
  return new Response(body, { headers: { 'Content-Type': 'application/xml; charset=utf-8', 'Cache-Control': 'public, max-age=3600' } });
};
