import { DEFAULT_LOCALE, isLocale, type Locale } from './i18n/locales.ts';

/**
 * Runtime configuration of SPEC §3. The same reader serves the server (process.env at start)
 * and the build (PUBLIC_* values baked into prerendered pages), so both agree on every default.
 */
export interface RuntimeConfig {
  /** Backend base address; same-origin /api/ by default. Always ends with '/'. */
  apiBase: string;
  /** Image provider: 'local' (the site's own files) or 'template' (src/lib/image/provider.ts). */
  imageProvider: string;
  /** The template provider's address, with {width} and {src}. */
  imageProviderUrl: string;
  /** Video manifest URL template; {videoId} is replaced by the KVID. */
  videoManifestUrl: string;
  i18n: {
    detectBrowserLanguage: boolean;
    /** Used when neither the cookie nor the browser's languages name a supported locale. */
    fallbackLocale: Locale;
    /** Hosts that pin a locale, e.g. { 'en.example.com': 'en' }. */
    domainLocales: Record<string, Locale>;
    baseUrl: string;
    /** When set, '/' always redirects to this locale's root with rootRedirectStatus. */
    rootRedirect: Locale | null;
    rootRedirectStatus: number;
  };
  /** Origins that navigation may leave to (SPEC §2: external URLs are refused unless allowed). */
  allowedExternalOrigins: string[];
  /** URL of the in-context translation script, loaded only in the ii mode. */
  inContextScriptUrl: string;
  /** Offer "ii · In-context translation" in every visitor's language menu; otherwise staff alone see it. */
  inContextMenu: boolean;
}

type Env = Record<string, string | undefined>;

function bool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return !['0', 'false', 'no', 'off'].includes(value.toLowerCase());
}

function localeOr(value: string | undefined, fallback: Locale | null): Locale | null {
  return isLocale(value) ? value : fallback;
}

/** The manifest address the server itself answers: the video's first part (server/media/media-access.ts). */
export const DEFAULT_VIDEO_MANIFEST_URL = '/media/videos/{videoId}/master.m3u8';

export function readRuntimeConfig(env: Env): RuntimeConfig {
  const get = (name: string) => env[`PUBLIC_${name}`] ?? env[name];
  const apiBase = get('API_BASE') || '/api/';
  const domainLocales: Record<string, Locale> = {};
  for (const pair of (get('I18N_DOMAIN_LOCALES') || '').split(',')) {
    const [host, code] = pair.split('=').map((s) => s?.trim());
    if (host && isLocale(code)) domainLocales[host] = code;
  }
  const status = Number(get('I18N_ROOT_REDIRECT_STATUS'));
  return {
    apiBase: apiBase.endsWith('/') ? apiBase : `${apiBase}/`,
    imageProvider: get('IMAGE_PROVIDER') || 'local',
    imageProviderUrl: get('IMAGE_PROVIDER_URL') || '',
    videoManifestUrl: get('VIDEO_MANIFEST_URL') || DEFAULT_VIDEO_MANIFEST_URL,
    i18n: {
      detectBrowserLanguage: bool(get('I18N_DETECT_BROWSER_LANGUAGE'), true),
      fallbackLocale: localeOr(get('I18N_FALLBACK_LOCALE'), DEFAULT_LOCALE) ?? DEFAULT_LOCALE,
      domainLocales,
      baseUrl: get('I18N_BASE_URL') || get('SITE_URL') || '',
      rootRedirect: localeOr(get('I18N_ROOT_REDIRECT'), null),
      rootRedirectStatus: status >= 300 && status <= 308 ? status : 302,
    },
    allowedExternalOrigins: (get('ALLOWED_EXTERNAL_ORIGINS') || '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    inContextScriptUrl: get('IN_CONTEXT_SCRIPT_URL') || 'https://cdn.crowdin.com/jipt/jipt.js',
    inContextMenu: bool(get('IN_CONTEXT_MENU'), false),
  };
}

/** The manifest URL of one video, from the configured template. */
export function videoManifestUrl(config: Pick<RuntimeConfig, 'videoManifestUrl'>, videoId: number): string {
  return config.videoManifestUrl.replaceAll('{videoId}', String(videoId));
}
