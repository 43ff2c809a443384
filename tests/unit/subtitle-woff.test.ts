/**
 * The ASS renderer's WOFF unpacking (src/lib/subtitles/woff.ts): the bundled Noto Sans SC and a
 * Latin WOFF come out as sfnt files whose directory names every table, sorted, 4-byte aligned,
 * each equal to what zlib unpacks; other formats pass through; a damaged file is refused.
 */
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { unpackWoff } from '../../src/lib/subtitles/woff.ts';

const FILES = 'node_modules/@fontsource/noto-sans-sc/files';
const read = (path: string) => new Uint8Array(readFileSync(path));

describe('unpackWoff', () => {
  for (const name of ['noto-sans-sc-latin-400-normal.woff', 'noto-sans-sc-chinese-simplified-400-normal.woff']) {
    it(`unpacks ${name} table by table`, async () => {
      const woff = read(`${FILES}/${name}`);
      const sfnt = await unpackWoff(woff);
      const view = new DataView(sfnt.buffer);
      const source = new DataView(woff.buffer, woff.byteOffset);
      const count = source.getUint16(12);
      // The header: the flavour (TrueType here), the table count and the binary-search fields.
      expect(view.getUint32(0)).toBe(0x00010000);
      expect(view.getUint16(4)).toBe(count);
      expect(view.getUint16(6)).toBe(2 ** Math.floor(Math.log2(count)) * 16);
      expect(view.getUint16(6) + view.getUint16(10)).toBe(count * 16);
      const tags = Array.from({ length: count }, (_, i) => view.getUint32(12 + i * 16));
      expect(tags).toEqual([...tags].sort((a, b) => a - b));
      // Each table as zlib unpacks it, at the aligned offset its directory entry names.
      for (let i = 0; i < count; i++) {
        const at = 44 + i * 20;
        const stored = woff.subarray(source.getUint32(at + 4), source.getUint32(at + 4) + source.getUint32(at + 8));
        const expected = stored.byteLength < source.getUint32(at + 12) ? inflateSync(stored) : stored;
        const offset = view.getUint32(12 + i * 16 + 8);
        expect(offset % 4).toBe(0);
        expect(view.getUint32(12 + i * 16)).toBe(source.getUint32(at));
        expect(Buffer.from(sfnt.subarray(offset, offset + expected.byteLength)).equals(Buffer.from(expected))).toBe(
          true,
        );
      }
    });
  }

  it('passes other fonts through as they are', async () => {
    const woff2 = read(`${FILES}/noto-sans-sc-latin-400-normal.woff2`);
    expect(await unpackWoff(woff2)).toBe(woff2);
    const tiny = new Uint8Array([0, 1, 0, 0]);
    expect(await unpackWoff(tiny)).toBe(tiny);
  });

  it('refuses a WOFF whose tables run past its end', async () => {
    const woff = read(`${FILES}/noto-sans-sc-latin-400-normal.woff`).slice(0, 2000);
    await expect(unpackWoff(woff)).rejects.toThrow(/WOFF/);
  });
});
