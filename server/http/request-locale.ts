import { detectLocale, parseAcceptLanguage, LOCALE_COOKIE } from '../../src/lib/i18n/detect.ts';
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../src/lib/i18n/locales.ts';
import { CLIENT_LANGUAGE_HEADER } from '../../src/lib/api/headers.ts';
import { translatorFor } from '../../src/lib/i18n/catalogs.ts';
import { parseCookies } from '../services/sessions.ts';

/**
 * The language a response message is written in: the page's language sent by the site, then
 * the locale cookie, then Accept-Language, then zhs.
 */
export function requestLocale(headers: Headers): Locale {
  const pageLocale = headers.get(CLIENT_LANGUAGE_HEADER);
  const locale = isLocale(pageLocale)
    ? pageLocale
    : detectLocale({
        cookieLocale: parseCookies(headers.get('cookie'))[LOCALE_COOKIE],
        browserLanguages: parseAcceptLanguage(headers.get('accept-language')),
        fallback: DEFAULT_LOCALE,
        routeLocale: DEFAULT_LOCALE,
      });
  // The in-context mode shows keys; API messages stay readable in the source language.
  return locale === 'ii' ? 'en' : locale;
}

export function localMessage(headers: Headers, key: string): string {
  return translatorFor(requestLocale(headers)).t(key);
}
