/**
 * The ten interface languages (SPEC §2). One table that the Astro config, the server's
 * locale detection, the pages and the islands all read, so a language is added in one place.
 */
export const LOCALES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'ii'] as const;
export type Locale = (typeof LOCALES)[number];

/** The nine languages with real message catalogs; ii is the in-context translation mode. */
export const CATALOG_LOCALES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue'] as const;
export type CatalogLocale = (typeof CATALOG_LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'zhs';

export interface LocaleInfo {
  code: Locale;
  /** The `<html lang>` value: the spec's tags where given, a correct BCP 47 tag elsewhere. */
  htmlLang: string;
  /** The language's own name, shown in the language menu. */
  nativeName: string;
  /** Browser language tags that select this locale, most specific first. */
  matches: string[];
}

export const LOCALE_INFO: Record<Locale, LocaleInfo> = {
  zhs: {
    code: 'zhs',
    htmlLang: 'zh-Hans-CN',
    nativeName: '简体中文',
    matches: ['zh-hans', 'zh-cn', 'zh-sg', 'zh-my', 'zh'],
  },
  zht: { code: 'zht', htmlLang: 'zh-Hant-TW', nativeName: '繁體中文', matches: ['zh-hant-tw', 'zh-tw', 'zh-hant'] },
  en: { code: 'en', htmlLang: 'en-US', nativeName: 'English', matches: ['en'] },
  ja: { code: 'ja', htmlLang: 'ja-JP', nativeName: '日本語', matches: ['ja'] },
  ko: { code: 'ko', htmlLang: 'ko-KR', nativeName: '한국어', matches: ['ko'] },
  vi: { code: 'vi', htmlLang: 'vi-VN', nativeName: 'Tiếng Việt', matches: ['vi'] },
  id: { code: 'id', htmlLang: 'id-ID', nativeName: 'Bahasa Indonesia', matches: ['id', 'in', 'ms'] },
  fr: { code: 'fr', htmlLang: 'fr-FR', nativeName: 'Français', matches: ['fr'] },
  yue: {
    code: 'yue',
    htmlLang: 'zh-Hant-HK',
    nativeName: '粵語',
    matches: ['yue', 'zh-hant-hk', 'zh-hk', 'zh-mo', 'zh-hant-mo'],
  },
  ii: { code: 'ii', htmlLang: 'ii', nativeName: 'ii · In-context translation', matches: [] },
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The path prefix of a locale: '' for the default, '/en' for the others. */
export function localePrefix(locale: Locale): string {
  return locale === DEFAULT_LOCALE ? '' : `/${locale}`;
}

/** Splits a pathname into its locale and the route behind the prefix ('/en/search' -> en, '/search'). */
export function splitLocale(pathname: string): { locale: Locale; route: string } {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  if (match && match[1] !== DEFAULT_LOCALE && isLocale(match[1])) {
    return { locale: match[1], route: match[2] || '/' };
  }
  return { locale: DEFAULT_LOCALE, route: pathname || '/' };
}

/** A route ('/search', '/') under a locale's prefix. The root of a prefixed locale keeps its slash: '/en/'. */
export function localizePath(route: string, locale: Locale): string {
  const clean = route.startsWith('/') ? route : `/${route}`;
  const prefix = localePrefix(locale);
  if (!prefix) return clean;
  return clean === '/' ? `${prefix}/` : `${prefix}${clean}`;
}

/** Language switch: the same route under another prefix, query and hash kept. */
export function switchLocalePath(currentPathWithQuery: string, target: Locale): string {
  const url = new URL(currentPathWithQuery, 'http://x');
  const { route } = splitLocale(url.pathname);
  return localizePath(route, target) + url.search + url.hash;
}

/** True for '/' and for the roots of prefixed locales ('/en', '/en/'), which keep a trailing slash. */
export function isLocaleRoot(pathname: string): boolean {
  if (pathname === '/') return true;
  const m = /^\/([^/]+)\/?$/.exec(pathname);
  return !!m && m[1] !== DEFAULT_LOCALE && isLocale(m[1]);
}
