import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { compressBody, mergeVary, preferredEncoding, type ContentEncoding } from '../http/content-encoding.ts';
import { POSTER_VARIANT_PATTERN } from '../../src/lib/catalogue/poster.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.m3u8': 'application/vnd.apple.mpegurl',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
  // Subtitle tracks (issue 29): the WebVTT players read, and the originals as downloads.
  '.vtt': 'text/vtt; charset=utf-8',
  '.ass': 'text/x-ssa; charset=utf-8',
  '.srt': 'application/x-subrip; charset=utf-8',
  // Fonts attached to an uploaded MKV, kept for its ASS tracks (accepted by their magic bytes).
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.ttc': 'font/collection',
  '.woff': 'font/woff',
};
/** The Content-Type of a file by its extension (with the dot). */
export const contentTypeFor = (ext: string) => TYPES[ext] ?? 'application/octet-stream';
const COMPRESSIBLE = new Set([
  '.html',
  '.js',
  '.mjs',
  '.css',
  '.json',
  '.svg',
  '.txt',
  '.xml',
  '.webmanifest',
  '.wasm',
  '.vtt',
  '.ass',
  '.srt',
  '.ttf',
  '.otf',
  '.ttc',
]);

/** Cache policy per kind of file: hashed assets forever, pages and master playlists revalidated, messages for a day. */
export function cacheControlFor(urlPath: string): string {
  // Built assets and poster sizes are named by their content: they never change under a name.
  if (urlPath.startsWith('/_astro/') || POSTER_VARIANT_PATTERN.test(urlPath))
    return 'public, max-age=31536000, immutable';
  if (urlPath.startsWith('/_i18n/')) return 'public, max-age=86400';
  if (urlPath === '/sw.js' || urlPath.startsWith('/_app/builds/')) return 'no-cache';
  // A master playlist is rewritten in place (rung by rung, and by the frame-rate backfill):
  // revalidated every time, a cheap 304 by its ETag while unchanged.
  if (urlPath.endsWith('/master.m3u8')) return 'no-cache';
  // Every other media file is written once under its path and never changed (a rendition is
  // published whole, an image gets a fresh random name): cacheable forever (docs/decisions/0009-scale-out.md).
  if (urlPath.startsWith('/hls/') || urlPath.startsWith('/images/')) return 'public, max-age=31536000, immutable';
  if (urlPath.endsWith('.html') || urlPath.endsWith('/_payload.json'))
    return 'public, max-age=0, s-maxage=600, must-revalidate';
  return 'public, max-age=3600';
}

interface Cached {
  mtimeMs: number;
  raw: Buffer;
  encoded: Partial<Record<ContentEncoding, Promise<Buffer>>>;
}

/**
 * Serves the prerendered pages and assets of dist/client. Returns false when no file matches,
 * so the request goes on to the pages rendered on demand.
 */
export function createStaticFiles(root: string) {
  const cache = new Map<string, Cached>();

  async function resolveFile(pathname: string): Promise<{ file: string; urlPath: string } | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const base = normalize(join(root, decoded));
    if (base !== root && !base.startsWith(root + sep)) return null;
    for (const candidate of [base, join(base, 'index.html')]) {
      const info = await stat(candidate).catch(() => null);
      if (info?.isFile()) return { file: candidate, urlPath: candidate.slice(root.length).split(sep).join('/') };
    }
    return null;
  }

  /**
   * `headersFor` adds the headers of the file found (its security headers, server/http/security-headers.ts);
   * `status` is the answer's status: a prerendered error page keeps its own (never a 304 then, which would lose it).
   */
  return async function serveStatic(
    req: IncomingMessage,
    res: ServerResponse,
    pathname: string,
    extraHeaders: Record<string, string> = {},
    headersFor: (urlPath: string) => Record<string, string> = () => ({}),
    status = 200,
  ): Promise<boolean> {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const found = await resolveFile(pathname);
    if (!found) return false;
    const info = await stat(found.file);
    const ext = extname(found.file);
    const etag = `W/"${info.size.toString(36)}-${Math.floor(info.mtimeMs).toString(36)}"`;
    const headers: Record<string, string> = {
      'Content-Type': contentTypeFor(ext),
      'Cache-Control': cacheControlFor(found.urlPath),
      ETag: etag,
      'X-Content-Type-Options': 'nosniff',
      ...headersFor(found.urlPath),
      ...extraHeaders,
    };
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return true;
    }
    const encoding =
      COMPRESSIBLE.has(ext) && info.size < 8 * 1024 * 1024 ? preferredEncoding(req.headers['accept-encoding']) : null;
    if (encoding) {
      let entry = cache.get(found.file);
      if (!entry || entry.mtimeMs !== info.mtimeMs) {
        entry = { mtimeMs: info.mtimeMs, raw: await readFile(found.file), encoded: {} };
        cache.set(found.file, entry);
      }
      const raw = entry.raw;
      // A big asset compressed at build time (src/integrations/build-artifacts.ts) is sent as it is.
      const body = await (entry.encoded[encoding] ??= readFile(
        `${found.file}.${encoding === 'br' ? 'br' : 'gz'}`,
      ).catch(() => compressBody(raw, encoding, 'max')));
      res.writeHead(status, {
        ...headers,
        'Content-Encoding': encoding,
        'Content-Length': String(body.length),
        Vary: mergeVary(headers.Vary, 'Accept-Encoding'),
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    }
    res.writeHead(status, { ...headers, 'Content-Length': String(info.size) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(found.file).pipe(res);
    return true;
  };
}
