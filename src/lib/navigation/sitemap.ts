/** Sitemap XML (sitemaps.org 0.9 with xhtml hreflang alternates), shared by the sitemap routes. */
import { LOCALES, LOCALE_INFO, localizePath, DEFAULT_LOCALE } from '../i18n/locales.ts';

const escapeXml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
/** Indexable languages: ii is a translators' key-display mode. */
const SITEMAP_LOCALES = LOCALES.filter((l) => l !== 'ii');
export const SITEMAP_HEADERS = { 'Content-Type': 'application/xml; charset=utf-8' };

/**
 * The video sitemap is split into files by ranges of video ids (file n holds the approved videos
 * with ids ((n-1)·size, n·size]), so a file keeps its content as videos are added and the index
 * lists only files that have videos. sitemaps.org allows 50,000 URLs and 50 MB per file; each
 * video is one <url> per language with ten alternates, about 13 KB for a 16-digit id under a
 * 47-character origin, so 2,500 videos stay under both limits for origins up to 120 characters.
 */
export const SITEMAP_VIDEOS_PER_FILE = 2000;
export const SITEMAP_VIDEOS_PER_FILE_MAX = 2500;
export const SITEMAP_MAX_URLS = 50_000;
export const SITEMAP_MAX_BYTES = 50 * 1024 * 1024;
export const videoSitemapPath = (file: number) => `/sitemap-videos-${file}.xml`;
export const audioSitemapPath = (file: number) => `/sitemap-audio-${file}.xml`;

function alternates(origin: string, route: string): string {
  return [
    ...SITEMAP_LOCALES.map(
      (alt) =>
        `<xhtml:link rel="alternate" hreflang="${LOCALE_INFO[alt].htmlLang}" href="${escapeXml(origin + localizePath(route, alt))}"/>`,
    ),
    `<xhtml:link rel="alternate" hreflang="x-default" href="${escapeXml(origin + localizePath(route, DEFAULT_LOCALE))}"/>`,
  ].join('');
}

/** One <url> per language of `route`, each naming all languages as alternates. */
export function localizedUrls(origin: string, route: string, lastmod?: Date): string {
  const mod = lastmod ? `<lastmod>${lastmod.toISOString()}</lastmod>` : '';
  const links = alternates(origin, route);
  return SITEMAP_LOCALES.map(
    (locale) => `<url><loc>${escapeXml(origin + localizePath(route, locale))}</loc>${mod}${links}</url>`,
  ).join('');
}

export function urlSet(entries: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">${entries}</urlset>`;
}

export function sitemapIndex(origin: string, sitemaps: Array<{ path: string; lastmod?: Date }>): string {
  const items = sitemaps
    .map(
      (s) =>
        `<sitemap><loc>${escapeXml(origin + s.path)}</loc>${s.lastmod ? `<lastmod>${s.lastmod.toISOString()}</lastmod>` : ''}</sitemap>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${items}</sitemapindex>`;
}

/**
 * The answer for one numbered file of an item sitemap (videos, audio tracks): its items' pages in
 * every language, or 404 for a file number that is not one or a file without approved items.
 */
export async function numberedSitemapFile(
  fileParam: string | undefined,
  origin: string,
  itemsOf: (file: number) => Promise<Array<{ route: string; updated: Date }>>,
): Promise<Response> {
  const file = /^[1-9]\d{0,8}$/.test(fileParam ?? '') ? Number(fileParam) : null;
  const items = file ? await itemsOf(file) : [];
  if (!items.length)
    return new Response('Not Found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const body = urlSet(items.map((item) => localizedUrls(origin, item.route, item.updated)).join(''));
  return new Response(body, { headers: { ...SITEMAP_HEADERS, 'Cache-Control': 'public, max-age=300' } });
}
