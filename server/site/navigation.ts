import { isLocaleRoot, localizePath, DEFAULT_LOCALE, type Locale } from '../../src/lib/i18n/locales.ts';
import { detectLocale, parseAcceptLanguage, LOCALE_COOKIE, localeCookieAttributes } from '../../src/lib/i18n/detect.ts';
import { MEDIA_INFO_WASM } from '../../src/lib/navigation/routes.ts';
import type { RuntimeConfig } from '../../src/lib/config.ts';
import { parseCookies } from '../services/sessions.ts';

export interface NavigationDecision {
  status: number;
  location: string;
  headers?: Record<string, string>;
}

export interface NavigationRequest {
  pathname: string;
  search: string;
  host: string;
  cookieHeader?: string | null;
  acceptLanguage?: string | null;
  secure: boolean;
}

/**
 * The navigation rules that must hold before any page is served (SPEC §2): the media-info wasm
 * redirect, trailing slashes, the root redirect and first-load locale detection. Returns a
 * redirect, or null to serve the path as it is (with extra headers to set, if any).
 */
/**
 * Serve the path as it is; `rewrite` names the page to answer with instead (the detected
 * language's home on '/', answered at once rather than through a redirect and a second request;
 * the page then shows its own address with history.replaceState, see AppLayout.astro).
 */
export interface ServeDecision {
  status: 0;
  headers: Record<string, string>;
  rewrite?: string;
}

export function decideNavigation(
  req: NavigationRequest,
  config: RuntimeConfig['i18n'],
): NavigationDecision | ServeDecision {
  const { pathname, search } = req;
  if (pathname.endsWith(`/${MEDIA_INFO_WASM}`) && pathname !== `/${MEDIA_INFO_WASM}`) {
    return { status: 301, location: `/${MEDIA_INFO_WASM}` };
  }
  if (pathname.length > 1 && pathname.endsWith('/') && !isLocaleRoot(pathname)) {
    const stripped = pathname.replace(/\/+$/, '') || '/';
    // '//evil.example' would be read as another host: keep redirects on this site.
    return { status: 301, location: stripped.replace(/^\/{2,}/, '/') + search };
  }
  if (pathname !== '/') return { status: 0, headers: {} };

  const pinned = config.domainLocales[req.host];
  if (config.rootRedirect)
    return { status: config.rootRedirectStatus, location: localizePath('/', config.rootRedirect) + search };
  if (pinned)
    return pinned === DEFAULT_LOCALE
      ? { status: 0, headers: {} }
      : { status: 302, location: localizePath('/', pinned) + search };
  if (!config.detectBrowserLanguage) return { status: 0, headers: {} };

  const cookieLocale = parseCookies(req.cookieHeader)[LOCALE_COOKIE];
  const locale: Locale = detectLocale({
    cookieLocale,
    browserLanguages: parseAcceptLanguage(req.acceptLanguage),
    fallback: config.fallbackLocale,
    routeLocale: DEFAULT_LOCALE,
  });
  const headers: Record<string, string> = { Vary: 'Cookie, Accept-Language' };
  if (cookieLocale !== locale)
    headers['Set-Cookie'] = `${LOCALE_COOKIE}=${locale}; ${localeCookieAttributes(req.secure)}`;
  if (locale === DEFAULT_LOCALE) return { status: 0, headers };
  return { status: 0, headers: { ...headers, 'Content-Language': locale }, rewrite: localizePath('/', locale) };
}
