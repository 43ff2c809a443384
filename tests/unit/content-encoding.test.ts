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
    const json = new TextEncoder().encode(JSON.stringify(Array.from({ length: 2000 }, (_, i) => ({ id: i, text: '前方高能', color: 'ffffff' }))));
    const br = await compressBody(json, 'br');
    const gz = await compressBody(json, 'gzip', 'max');
    expect(brotliDecompressSync(br).equals(Buffer.from(json))).toBe(true);
    expect(gunzipSync(gz).equals(Buffer.from(json))).toBe(true);
    expect(br.length).toBeLessThan(json.length / 5);
  });
});
