import { describe, expect, it } from 'vitest';
import {
  resolveErrorRoute,
  errorVariant,
  httpStatusFor,
  errorTitle,
  shownStatus,
  prerenderedErrorStatus,
} from '../../src/lib/navigation/error-route.ts';
import { checkNavigation } from '../../src/lib/navigation/safe-url.ts';
import {
  breakpointFor,
  layoutForRoute,
  STATIC_ROUTES,
  SETTINGS_PAGES,
  ADMIN_SETTINGS_PAGES,
} from '../../src/lib/navigation/routes.ts';
import { decideNavigation } from '../../server/site/navigation.ts';
import { readRuntimeConfig } from '../../src/lib/config.ts';

describe('/error/{code}', () => {
  it('shows normally with no code', () => expect(resolveErrorRoute(undefined, '/error')).toEqual({ kind: 'show' }));
  it('treats 404 and non-numbers as a page that is not found', () => {
    expect(resolveErrorRoute('404', '/error/404')).toEqual({
      kind: 'abort',
      status: 404,
      message: 'Page Not Found: /error/404',
    });
    expect(resolveErrorRoute('abc', '/error/abc')).toEqual({
      kind: 'abort',
      status: 404,
      message: 'Page Not Found: /error/abc',
    });
    expect(resolveErrorRoute('Infinity', '/error/Infinity').kind).toBe('abort');
    expect(resolveErrorRoute('1e3', '/error/1e3')).toMatchObject({ status: 404 });
  });
  it('sends 601 to /unsupported and answers 233 with 乐', () => {
    expect(resolveErrorRoute('601', '/error/601')).toEqual({ kind: 'redirect', to: '/unsupported' });
    expect(resolveErrorRoute('233', '/error/233')).toEqual({ kind: 'abort', status: 233, message: '乐' });
  });
  it('aborts other codes with their standard text', () => {
    expect(resolveErrorRoute('403', '/error/403')).toEqual({ kind: 'abort', status: 403, message: 'Forbidden' });
    expect(resolveErrorRoute('502', '/error/502')).toEqual({ kind: 'abort', status: 502, message: 'Bad Gateway' });
    expect(resolveErrorRoute('418', '/error/418')).toEqual({ kind: 'abort', status: 418, message: "I'm a Teapot" });
    expect(resolveErrorRoute('799', '/error/799')).toEqual({
      kind: 'abort',
      status: 799,
      message: 'Internal Server Error',
    });
  });
  it('picks the error layout and the HTTP status', () => {
    expect([404, 233, 403, 502, 301, 500, 418].map(errorVariant)).toEqual([
      'not-found',
      'not-found',
      'forbidden',
      'bad-gateway',
      'redirect',
      'generic',
      'generic',
    ]);
    expect([404, 233, 301, 403, 502, 799, 200].map(httpStatusFor)).toEqual([404, 404, 404, 403, 502, 500, 500]);
    expect(errorTitle(502)).toBe('502 Bad Gateway');
  });
  it('shows the missing-video page (/error/301) as the not-found page it is', () => {
    expect([301, 404, 403, 233].map(shownStatus)).toEqual([404, 404, 403, 233]);
    expect(errorTitle(301)).toBe('404 Not Found');
  });
});

describe('prerendered error pages', () => {
  it('are served with their status: 301 as a not-found answer, the others as themselves', () => {
    expect([301, 403, 404, 500, 502].map((code) => prerenderedErrorStatus(`/error/${code}`))).toEqual([
      404, 403, 404, 500, 502,
    ]);
    expect(prerenderedErrorStatus('/error/502/')).toBe(502);
  });
  it('are only those five: other codes and other routes render on demand', () => {
    for (const route of ['/error/418', '/error/233', '/error', '/error/403/x', '/search', '/error/4030'])
      expect(prerenderedErrorStatus(route), route).toBeNull();
  });
});

describe('navigation guard', () => {
  const origin = 'https://kiraboshi.example';
  it('refuses script protocols in any spelling', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' java\tscript:alert(1)',
      'data:text/html,<b>x</b>',
      'vbscript:x',
    ]) {
      expect(checkNavigation(href, origin), href).toEqual({ ok: false, reason: 'script-protocol' });
    }
  });
  it('allows the site and listed origins only', () => {
    expect(checkNavigation('/search?keyword=x', origin)).toMatchObject({ ok: true, external: false });
    expect(checkNavigation('https://evil.example/', origin)).toEqual({ ok: false, reason: 'external-not-allowed' });
    expect(checkNavigation('//evil.example/x', origin)).toEqual({ ok: false, reason: 'external-not-allowed' });
    expect(checkNavigation('https://docs.example/a', origin, ['https://docs.example'])).toMatchObject({
      ok: true,
      external: true,
    });
  });
});

describe('routes and layouts', () => {
  it('has breakpoints at 639 and 991 px', () => {
    expect([320, 639, 640, 991, 992, 1920].map(breakpointFor)).toEqual([
      'mobile',
      'mobile',
      'tablet',
      'tablet',
      'computer',
      'computer',
    ]);
  });
  it('is immersive only under /welcome', () => {
    expect(layoutForRoute('/welcome')).toBe('immersive');
    expect(layoutForRoute('/welcome/x')).toBe('immersive');
    expect(layoutForRoute('/')).toBe('responsive');
    expect(layoutForRoute('/user/1')).toBe('responsive');
  });
  it('prerenders every settings page except the administrator ones', () => {
    expect(SETTINGS_PAGES).toHaveLength(22);
    for (const page of SETTINGS_PAGES)
      expect(STATIC_ROUTES.includes(`/settings/${page}`)).toBe(!ADMIN_SETTINGS_PAGES.includes(page));
  });
});

describe('server-side navigation rules', () => {
  const i18n = readRuntimeConfig({}).i18n;
  const req = (pathname: string, extra: Partial<Parameters<typeof decideNavigation>[0]> = {}) =>
    decideNavigation({ pathname, search: '', host: 'localhost', secure: false, ...extra }, i18n);

  it('strips trailing slashes except on roots', () => {
    expect(req('/search/')).toEqual({ status: 301, location: '/search' });
    expect(req('/en/search/', { search: '?a=1' })).toEqual({ status: 301, location: '/en/search?a=1' });
    expect(req('/en/')).toEqual({ status: 0, headers: {} });
    expect(req('//evil.example/')).toEqual({ status: 301, location: '/evil.example' });
  });
  it('redirects the media-info wasm to the root file', () => {
    expect(req('/video/MediaInfoModule.wasm')).toEqual({ status: 301, location: '/MediaInfoModule.wasm' });
    expect(req('/MediaInfoModule.wasm')).toEqual({ status: 0, headers: {} });
  });
  it('detects the language on the root, answers in it and remembers it', () => {
    // Answered at once with the Japanese home page (no redirect, no second request).
    expect(req('/', { acceptLanguage: 'ja-JP,ja;q=0.9' })).toEqual({
      status: 0,
      rewrite: '/ja/',
      headers: {
        Vary: 'Cookie, Accept-Language',
        'Set-Cookie': 'i18n_redirected=ja; Path=/; Max-Age=31536000; SameSite=Lax',
        'Content-Language': 'ja',
      },
    });
    expect(req('/', { cookieHeader: 'i18n_redirected=zhs', acceptLanguage: 'ja' })).toEqual({
      status: 0,
      headers: { Vary: 'Cookie, Accept-Language' },
    });
    expect(req('/', { acceptLanguage: 'de', secure: true })).toMatchObject({
      status: 0,
      headers: { 'Set-Cookie': expect.stringContaining('Secure') },
    });
  });
  it('honours a configured root redirect and its status', () => {
    const config = readRuntimeConfig({ I18N_ROOT_REDIRECT: 'en', I18N_ROOT_REDIRECT_STATUS: '301' }).i18n;
    expect(decideNavigation({ pathname: '/', search: '', host: 'x', secure: false }, config)).toEqual({
      status: 301,
      location: '/en/',
    });
    expect(readRuntimeConfig({ I18N_ROOT_REDIRECT: 'en' }).i18n.rootRedirectStatus).toBe(302);
  });
});
