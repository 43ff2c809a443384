import { describe, expect, it } from 'vitest';
import {
  LOCALES,
  LOCALE_INFO,
  splitLocale,
  localizePath,
  switchLocalePath,
  isLocaleRoot,
} from '../../src/lib/i18n/locales.ts';
import {
  detectLocale,
  matchBrowserLanguages,
  parseAcceptLanguage,
  localeCookieAttributes,
} from '../../src/lib/i18n/detect.ts';

describe('locale table', () => {
  it('has the ten codes with the spec language tags', () => {
    expect(LOCALES).toEqual(['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'ii']);
    expect(LOCALE_INFO.zhs.htmlLang).toBe('zh-Hans-CN');
    expect(LOCALE_INFO.zht.htmlLang).toBe('zh-Hant-TW');
    expect(LOCALE_INFO.en.htmlLang).toBe('en-US');
    expect(LOCALE_INFO.yue.htmlLang).toBe('zh-Hant-HK');
    for (const code of ['ja', 'ko', 'vi', 'id', 'fr'] as const) {
      expect(() => new Intl.Locale(LOCALE_INFO[code].htmlLang)).not.toThrow();
      expect(new Intl.Locale(LOCALE_INFO[code].htmlLang).language).toBe(code);
    }
  });
});

describe('paths', () => {
  it('splits the prefix off a path', () => {
    expect(splitLocale('/en/search')).toEqual({ locale: 'en', route: '/search' });
    expect(splitLocale('/en')).toEqual({ locale: 'en', route: '/' });
    expect(splitLocale('/search')).toEqual({ locale: 'zhs', route: '/search' });
    expect(splitLocale('/zhs/search')).toEqual({ locale: 'zhs', route: '/zhs/search' }); // the default has no prefix
    expect(splitLocale('/english/x')).toEqual({ locale: 'zhs', route: '/english/x' });
  });
  it('prefixes routes, keeping the slash only on a locale root', () => {
    expect(localizePath('/', 'zhs')).toBe('/');
    expect(localizePath('/', 'ja')).toBe('/ja/');
    expect(localizePath('/video/kv1', 'fr')).toBe('/fr/video/kv1');
    expect(localizePath('search', 'zhs')).toBe('/search');
  });
  it('switches language keeping route, query and hash', () => {
    expect(switchLocalePath('/search?keyword=猫#top', 'en')).toBe('/en/search?keyword=%E7%8C%AB#top');
    expect(switchLocalePath('/en/user/5/videos', 'zhs')).toBe('/user/5/videos');
    expect(switchLocalePath('/ko/', 'yue')).toBe('/yue/');
    expect(switchLocalePath('/', 'ii')).toBe('/ii/');
  });
  it('knows locale roots', () => {
    expect(isLocaleRoot('/')).toBe(true);
    expect(isLocaleRoot('/en/')).toBe(true);
    expect(isLocaleRoot('/en')).toBe(true);
    expect(isLocaleRoot('/zhs/')).toBe(false);
    expect(isLocaleRoot('/search/')).toBe(false);
  });
});

describe('locale detection', () => {
  it('orders Accept-Language by quality', () => {
    expect(parseAcceptLanguage('fr;q=0.5, ja-JP, en;q=0.8, *;q=0.1')).toEqual(['ja-JP', 'en', 'fr']);
    expect(parseAcceptLanguage('')).toEqual([]);
    expect(parseAcceptLanguage('de;q=0')).toEqual([]);
  });
  it('maps browser languages to the most specific locale', () => {
    expect(matchBrowserLanguages(['zh-HK'])).toBe('yue');
    expect(matchBrowserLanguages(['zh-TW'])).toBe('zht');
    expect(matchBrowserLanguages(['zh-Hant'])).toBe('zht');
    expect(matchBrowserLanguages(['zh-CN'])).toBe('zhs');
    expect(matchBrowserLanguages(['zh'])).toBe('zhs');
    expect(matchBrowserLanguages(['en-GB'])).toBe('en');
    expect(matchBrowserLanguages(['de-DE', 'ko-KR'])).toBe('ko');
    expect(matchBrowserLanguages(['de-DE'])).toBeUndefined();
    expect(matchBrowserLanguages(['ii'])).toBeUndefined(); // the in-context mode is never detected
  });
  it('prefers the cookie, then the browser, then the fallback', () => {
    const base = { fallback: 'en' as const, routeLocale: 'zhs' as const };
    expect(detectLocale({ ...base, cookieLocale: 'fr', browserLanguages: ['ja'] })).toBe('fr');
    expect(detectLocale({ ...base, cookieLocale: 'bogus', browserLanguages: ['ja'] })).toBe('ja');
    expect(detectLocale({ ...base, cookieLocale: null, browserLanguages: ['de'] })).toBe('en');
  });
  it('writes the cookie attributes of SPEC §9', () => {
    expect(localeCookieAttributes(false)).toBe('Path=/; Max-Age=31536000; SameSite=Lax');
    expect(localeCookieAttributes(true)).toBe('Path=/; Max-Age=31536000; SameSite=Lax; Secure');
    expect(localeCookieAttributes(false, true)).toBe('Path=/; Max-Age=31536000; SameSite=None; Secure');
  });
});
