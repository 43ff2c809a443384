/**
 * Big built assets compressed at build time (src/integrations/build-artifacts.ts) are sent as they
 * are by the static files (server/site/static-files.ts); an asset without them is compressed on
 * its first request as before.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaticFiles } from '../../server/site/static-files.ts';

let root = '';
let server: Server;
let base = '';
const wasm = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251));
// Made at another level than the server's, so the bytes sent tell which one went.
const prebuiltBr = brotliCompressSync(wasm, { params: { [constants.BROTLI_PARAM_QUALITY]: 1 } });
const prebuiltGz = gzipSync(wasm, { level: 1 });

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'kiraboshi-static-'));
  await mkdir(join(root, '_astro'));
  await writeFile(join(root, '_astro', 'renderer.wasm'), wasm);
  await writeFile(join(root, '_astro', 'renderer.wasm.br'), prebuiltBr);
  await writeFile(join(root, '_astro', 'renderer.wasm.gz'), prebuiltGz);
  await writeFile(join(root, '_astro', 'other.wasm'), wasm);
  const serve = createStaticFiles(root);
  server = createServer((req, res) => void serve(req, res, new URL(req.url!, 'http://x').pathname));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await rm(root, { recursive: true, force: true });
});

function get(
  path: string,
  encoding: string,
): Promise<{ headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers: { 'Accept-Encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}

describe('precompressed assets', () => {
  it('sends the build’s brotli and gzip files as they are', async () => {
    const br = await get('/_astro/renderer.wasm', 'br, gzip');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/wasm');
    expect(br.body.equals(prebuiltBr)).toBe(true);
    const gz = await get('/_astro/renderer.wasm', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(prebuiltGz)).toBe(true);
    expect(gunzipSync(gz.body).equals(wasm)).toBe(true);
  });

  it('compresses an asset without them on its first request', async () => {
    const br = await get('/_astro/other.wasm', 'br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.equals(prebuiltBr)).toBe(false);
    expect(brotliDecompressSync(br.body).equals(wasm)).toBe(true);
  });
});
