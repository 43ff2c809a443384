import { LOCALES, DEFAULT_LOCALE, isLocale, type Locale } from '../i18n/locales.ts';

/** getStaticPaths for a page under src/pages/[...locale]/: one path per locale, none prefixed for the default. */
export function localeStaticPaths(): Array<{ params: { locale: string | undefined }; props: { locale: Locale } }> {
  return LOCALES.map((locale) => ({
    params: { locale: locale === DEFAULT_LOCALE ? undefined : locale },
    props: { locale },
  }));
}

/** The locale of an on-demand page's [...locale] parameter; null when it names no locale (the page is then a 404). */
export function localeFromParam(param: string | undefined): Locale | null {
  if (param === undefined || param === '') return DEFAULT_LOCALE;
  return isLocale(param) && param !== DEFAULT_LOCALE ? param : null;
}
