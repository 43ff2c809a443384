import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressBody, preferredEncoding } from '../../server/http/content-encoding.ts';

describe('preferredEncoding', () => {
  it('prefers brotli, then gzip, and honours q=0 refusals', () => {
    expect(preferredEncoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredEncoding('gzip;q=1.0, identity; q=0.5')).toBe('gzip');
    expect(preferredEncoding('BR;q=0, GZIP')).toBe('gzip');
    expect(preferredEncoding('br;q=0,gzip;q=0')).toBeNull();
    expect(preferredEncoding('identity')).toBeNull();
    expect(preferredEncoding('')).toBeNull();
    expect(preferredEncoding(undefined)).toBeNull();
  });
});

describe('compressBody', () => {
  it('round-trips through both encodings and shrinks repetitive JSON', async () => {
    const json = new TextEncoder().encode(
      JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, text: '前方高能', color: 'ffffff' }))),
    );
    const br = await compressBody(json, 'br');
    const gz = await compressBody(json, 'gzip', 'max');
    expect(brotliDecompressSync(br).equals(Buffer.from(json))).toBe(true);
    expect(gunzipSync(gz).equals(Buffer.from(json))).toBe(true);
    expect(br.length).toBeLessThan(json.length / 5);
  });
});

describe('encodedAnswer', () => {
  it('gives the first viewer a quick compression, and those after the usual one made behind it', async () => {
    const { encodedAnswer } = await import('../../server/services/danmaku.ts');
    const body = new TextEncoder().encode(
      JSON.stringify(
        Array.from({ length: 3000 }, (_, i) => ({ id: i, time: i / 7, text: `弾幕 ${i % 50}`, color: 'ffffff' })),
      ),
    );
    const entry = { version: '1.1', body, etag: 'W/"x"', checkedAt: 0, encoded: {} };
    const first = await encodedAnswer(entry, 'gzip');
    expect(gunzipSync(first).equals(Buffer.from(body))).toBe(true);
    expect(first.length).toBeGreaterThan((await compressBody(body, 'gzip')).length); // the quick level, larger
    // The usual level replaces it once made (on the thread pool); wait for that, not for a time.
    while ((await encodedAnswer(entry, 'gzip')) === first) await new Promise((resolve) => setImmediate(resolve));
    const later = await encodedAnswer(entry, 'gzip');
    expect(gunzipSync(later).equals(Buffer.from(body))).toBe(true);
    expect(later.length).toBe((await compressBody(body, 'gzip')).length);
  });
});
