/**
 * The security headers of every answer (pages, API, /media/, errors): a Content-Security-Policy,
 * Referrer-Policy, X-Content-Type-Options, Permissions-Policy and X-Frame-Options
 * (docs/decisions/0013-security-headers.md).
 *
 * The policy is made of two halves. Astro hashes the scripts and styles it writes into a page
 * (security.csp in astro.config.mjs): for prerendered pages that half is in dist/_headers.json,
 * for pages rendered on demand Astro sends it as a header. This module adds the rest, which
 * depends on the running configuration (where the API, media and the in-context script live),
 * and merges the two, source lists joined directive by directive.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export interface SecurityHeadersOptions {
  /** PUBLIC_API_BASE: '/api/' or an address on another origin. */
  apiBase: string;
  /** MEDIA_PUBLIC_BASE_URL: public media are redirected there (a CDN or a bucket). */
  mediaPublicBaseUrl?: string | null;
  /** PUBLIC_VIDEO_MANIFEST_URL: may name another origin. */
  videoManifestUrl: string;
  /** PUBLIC_IMAGE_PROVIDER_URL: the resizing service pictures come from, with the template provider. */
  imageProviderUrl?: string;
  /** PUBLIC_IN_CONTEXT_SCRIPT_URL: loaded on the `ii` pages only. */
  inContextScriptUrl: string;
}

type Directives = Map<string, string[]>;

/** The embed players (/embed/kv{id}, /embed/ka{id}): the only pages other sites may frame. */
const EMBED_PATH = /^\/embed\/k[va][1-9]\d{0,14}$/;

/**
 * Who may frame the page at this path. The one place for exceptions: the embed players answer
 * `*` (any site may show them in an iframe, src/pages/embed/); every other page, only the site.
 */
export function frameAncestorsFor(path: string): string[] {
  return EMBED_PATH.test(path) ? ['*'] : ["'self'"];
}

/**
 * The features the site uses, for itself only (the player's fullscreen and picture-in-picture,
 * autoplay); powerful ones it does not use, off. Only names Chromium knows: an unknown one is
 * logged on every page (as 'bluetooth' was).
 */
export const PERMISSIONS_POLICY = [
  'fullscreen=(self)',
  'picture-in-picture=(self)',
  'autoplay=(self)',
  'camera=()',
  'microphone=()',
  'geolocation=()',
  'display-capture=()',
  'payment=()',
  'usb=()',
  'serial=()',
  'hid=()',
  'midi=()',
  'accelerometer=()',
  'gyroscope=()',
  'magnetometer=()',
  'screen-wake-lock=()',
  'xr-spatial-tracking=()',
  'publickey-credentials-get=()',
  'idle-detection=()',
  'browsing-topics=()',
].join(', ');

/** The origin of an absolute address, null for a path on this site (or nothing usable). */
function originOf(address: string | null | undefined): string | null {
  if (!address || !/^https?:\/\//i.test(address)) return null;
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}

export function parsePolicy(text: string): Directives {
  const directives: Directives = new Map();
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/).filter(Boolean);
    if (name)
      directives.set(name.toLowerCase(), [...new Set([...(directives.get(name.toLowerCase()) ?? []), ...sources])]);
  }
  return directives;
}

export function formatPolicy(directives: Directives): string {
  return [...directives].map(([name, sources]) => [name, ...sources].join(' ')).join('; ');
}

/** Both policies' sources, directive by directive ('none' dropped where something else is allowed). */
function mergePolicies(base: Directives, extra: Directives): Directives {
  const merged: Directives = new Map(base);
  for (const [name, sources] of extra) {
    const joined = [...new Set([...(merged.get(name) ?? []), ...sources])];
    merged.set(name, joined.length > 1 ? joined.filter((source) => source !== "'none'") : joined);
  }
  return merged;
}

/** A page of the in-context translation mode (`/ii`, `/ii/...`). */
const isInContextPath = (path: string) => path === '/ii' || path.startsWith('/ii/');

export function createSecurityHeaders(options: SecurityHeadersOptions, prerendered: Map<string, string> = new Map()) {
  const api = originOf(options.apiBase);
  const media = [originOf(options.mediaPublicBaseUrl), originOf(options.videoManifestUrl)];
  const imageService = originOf(options.imageProviderUrl?.replace(/\{\w+\}/g, 'x'));
  const list = (...sources: (string | null)[]) => [...new Set(sources.filter((source): source is string => !!source))];
  const base: Directives = new Map([
    ['default-src', ["'self'"]],
    // Scripts: the site's own files (Astro adds the hashes of what it writes into pages);
    // WebAssembly for mediainfo.js, the check before an upload.
    ['script-src', ["'self'", "'wasm-unsafe-eval'"]],
    ['style-src', ["'self'"]],
    // Style attributes (React style props, Astro's define:vars, positions set by the server).
    ['style-src-attr', ["'unsafe-inline'"]],
    // data: for generated images (QR codes, samples); blob: for wallpapers from IndexedDB and
    // previews of chosen files; the API for images it serves; the media address for posters.
    ['img-src', list("'self'", 'data:', 'blob:', api, ...media, imageService)],
    // blob: is the MediaSource hls.js plays from.
    ['media-src', list("'self'", 'blob:', api, ...media)],
    // The API (calls, uploads, live danmaku), and playlists and segments hls.js fetches.
    ['connect-src', list("'self'", api, ...media)],
    // The danmaku and palette workers, and hls.js's worker (from a blob).
    ['worker-src', ["'self'", 'blob:']],
    ['manifest-src', ["'self'"]],
    ['font-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
  ]);
  // The translators' mode loads a script from elsewhere, which adds its own frames, styles and calls.
  const inContext = originOf(options.inContextScriptUrl);
  const inContextSources = inContext
    ? list(inContext, /(^|\.)crowdin\.com$/.test(new URL(inContext).hostname) ? 'https://crowdin.com' : null)
    : [];
  const inContextExtra: Directives = new Map(
    ['script-src', 'style-src', 'img-src', 'connect-src', 'frame-src', 'font-src'].map((name) => [
      name,
      inContextSources,
    ]),
  );

  /** The policy at this path; `pagePolicy` is the page's own half (Astro's hashes), if it is a page. */
  function policyFor(path: string, pagePolicy?: string): string {
    let directives = mergePolicies(base, pagePolicy ? parsePolicy(pagePolicy) : new Map());
    if (isInContextPath(path) && inContextSources.length) {
      directives = mergePolicies(directives, inContextExtra);
      frameSrcSelf(directives);
      // The translation script writes its own <style> elements, which no hash can know.
      directives.set(
        'style-src',
        list(...(directives.get('style-src') ?? []).filter((source) => !/^'sha\d+-/.test(source)), "'unsafe-inline'"),
      );
    }
    directives.set('frame-ancestors', frameAncestorsFor(path));
    return formatPolicy(directives);
  }

  function headersFor(path: string, pagePolicy?: string): Record<string, string> {
    const ancestors = frameAncestorsFor(path);
    return {
      'Content-Security-Policy': policyFor(path, pagePolicy),
      'Referrer-Policy': 'strict-origin-when-cross-origin',
      'X-Content-Type-Options': 'nosniff',
      'Permissions-Policy': PERMISSIONS_POLICY,
      // For browsers without frame-ancestors; left out where other sites may frame the page.
      ...(ancestors.length === 1 && ancestors[0] === "'self'" ? { 'X-Frame-Options': 'SAMEORIGIN' } : {}),
    };
  }

  // Without a page's half, the headers depend on two things of the path only: built once each
  // (every API answer carries them; building the policy was 1-2 % of a like's server time).
  const plainHeaders = new Map<string, Array<[string, string]>>();
  const plainHeadersFor = (path: string) => {
    const kind = `${isInContextPath(path)}:${frameAncestorsFor(path).join(' ')}`;
    let headers = plainHeaders.get(kind);
    if (!headers) plainHeaders.set(kind, (headers = Object.entries(headersFor(path))));
    return headers;
  };

  return {
    headersFor,
    /** Every answer starts with the headers of its path; a page's own answer refines its policy. */
    apply(res: ServerResponse, path: string): void {
      for (const [name, value] of plainHeadersFor(path)) res.setHeader(name, value);
    },
    /** The headers of a prerendered file at this path of dist/client (its Astro half when it is a page). */
    forStaticFile(path: string, urlPath: string): Record<string, string> {
      const page = urlPath.endsWith('.html')
        ? prerendered.get(urlPath.replace(/(\/index)?\.html$/, '') || '/')
        : undefined;
      return headersFor(path, page);
    },
    /**
     * Pages rendered on demand: Astro writes its half as a header; it is completed here as the
     * head goes out, whoever writes it (the compression wrapper included).
     */
    completeRenderedPolicy(res: ServerResponse, path: string): void {
      const writeHead = res.writeHead.bind(res);
      res.writeHead = ((status: number, ...rest: unknown[]) => {
        const headers = rest.find((arg) => arg && typeof arg === 'object' && !Array.isArray(arg)) as
          | OutgoingHttpHeaders
          | undefined;
        const name = headers && Object.keys(headers).find((key) => key.toLowerCase() === 'content-security-policy');
        if (headers && name) {
          const astro = String(headers[name]);
          delete headers[name];
          headers['Content-Security-Policy'] = policyFor(path, astro);
        }
        return (writeHead as (...args: unknown[]) => ServerResponse)(status, ...rest);
      }) as typeof res.writeHead;
    },
  };
}

/** In ii mode the script's own frames come from its origin too ('self' kept for the site's). */
function frameSrcSelf(directives: Directives): void {
  const frames = directives.get('frame-src');
  if (frames && !frames.includes("'self'")) directives.set('frame-src', ["'self'", ...frames]);
}

export type SecurityHeaders = ReturnType<typeof createSecurityHeaders>;

/** Astro's half of each prerendered page's policy (dist/_headers.json), by page path; empty without it. */
export async function readPrerenderedPolicies(distDir: string): Promise<Map<string, string>> {
  const text = await readFile(join(distDir, '_headers.json'), 'utf8').catch(() => null);
  const policies = new Map<string, string>();
  if (!text) return policies;
  for (const entry of JSON.parse(text) as { pathname: string; headers: { key: string; value: string }[] }[]) {
    const csp = entry.headers.find((header) => header.key.toLowerCase() === 'content-security-policy');
    if (csp) policies.set(entry.pathname.replace(/\/$/, '') || '/', csp.value);
  }
  return policies;
}

/** The headers of this server's configuration, with the prerendered pages' halves of its build. */
export async function loadSecurityHeaders(config: {
  runtime: {
    apiBase: string;
    videoManifestUrl: string;
    inContextScriptUrl: string;
    imageProvider: string;
    imageProviderUrl: string;
  };
  mediaPublicBaseUrl?: string;
  distDir: string;
}) {
  const { apiBase, videoManifestUrl, inContextScriptUrl, imageProvider, imageProviderUrl } = config.runtime;
  return createSecurityHeaders(
    {
      apiBase,
      videoManifestUrl,
      inContextScriptUrl,
      mediaPublicBaseUrl: config.mediaPublicBaseUrl,
      imageProviderUrl: imageProvider === 'template' ? imageProviderUrl : undefined,
    },
    await readPrerenderedPolicies(config.distDir),
  );
}
