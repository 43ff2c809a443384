import { CATALOG_LOCALES, LOCALE_INFO, isLocale, type Locale } from './locales.ts';

export const LOCALE_COOKIE = 'i18n_redirected';
export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** Picks the best locale for a list of browser language tags, in the browser's order of preference. */
export function matchBrowserLanguages(languages: readonly string[]): Locale | undefined {
  for (const raw of languages) {
    const tag = raw.trim().toLowerCase();
    if (!tag) continue;
    // Most specific match wins: 'zh-HK' is Cantonese before it is generic Chinese.
    let best: { locale: Locale; length: number } | undefined;
    for (const code of CATALOG_LOCALES) {
      for (const m of LOCALE_INFO[code].matches) {
        if ((tag === m || tag.startsWith(`${m}-`)) && (!best || m.length > best.length)) {
          best = { locale: code, length: m.length };
        }
      }
    }
    if (best) return best.locale;
  }
  return undefined;
}

/** Parses an Accept-Language header into tags ordered by quality. */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)).find(Boolean);
      return { tag: tag.trim(), q: q ? Number(q[1]) : 1, index };
    })
    .filter((x) => x.tag && x.tag !== '*' && x.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((x) => x.tag);
}

export interface DetectInput {
  cookieLocale?: string | null;
  browserLanguages: readonly string[];
  fallback: Locale;
  routeLocale: Locale;
}

/** First-load locale detection in the order of SPEC §2: cookie, browser languages, configured fallback, route. */
export function detectLocale({ cookieLocale, browserLanguages, fallback, routeLocale }: DetectInput): Locale {
  if (isLocale(cookieLocale)) return cookieLocale;
  return matchBrowserLanguages(browserLanguages) ?? fallback ?? routeLocale;
}

/** The Set-Cookie attributes of the locale cookie (SPEC §9). */
export function localeCookieAttributes(secure: boolean, crossOrigin = false): string {
  const sameSite = crossOrigin ? 'None' : 'Lax';
  return `Path=/; Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}; SameSite=${sameSite}${secure || crossOrigin ? '; Secure' : ''}`;
}
