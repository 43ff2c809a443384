/**
 * Response compression shared by the static files and the API's cached answers: which encoding
 * a request accepts, and compressing a body that is built once and then sent many times.
 */
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { promisify } from 'node:util';

export type ContentEncoding = 'br' | 'gzip';

/** Brotli when the request accepts it, else gzip, else none (`q=0` refuses an encoding). */
export function preferredEncoding(acceptEncoding: string | null | undefined): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) continue;
    accepted.add(name.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return null;
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses on the thread pool, off the event loop. `effort` 'max' is for files that never
 * change (built assets); 'fast' for answers rebuilt whenever their data changes, where brotli 5
 * already takes a megabyte of danmaku JSON to about a sixth in a few milliseconds; 'quick' for
 * the one request that must not wait for those milliseconds (about a fifth of the time, a
 * quarter larger: bench/README.md, "scale").
 */
const LEVELS = { quick: { br: 1, gzip: 1 }, fast: { br: 5, gzip: 6 }, max: { br: 9, gzip: 9 } } as const;

export async function compressBody(
  body: Uint8Array,
  encoding: ContentEncoding,
  effort: keyof typeof LEVELS = 'fast',
): Promise<Buffer<ArrayBuffer>> {
  if (encoding === 'br') {
    return (await brotliAsync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: LEVELS[effort].br, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
    })) as Buffer<ArrayBuffer>;
  }
  return (await gzipAsync(body, { level: LEVELS[effort].gzip })) as Buffer<ArrayBuffer>;
}

export function mergeVary(existing: string | undefined, value: string): string {
  return existing ? `${existing}, ${value}` : value;
}
