/**
 * Fonts made ready for libass at processing time (server/media/subtitle-fonts.ts), on real font
 * files the site depends on: WOFF and WOFF2 attachments come out as the sfnt inside them (the same
 * tables as the WOFF unpacked table by table, and the WOFF2 the same glyphs and names), a bomb or a
 * damaged file is refused; a track's cut of the fallback holds exactly the characters its lines
 * use that the fallback has, under the family name libass looks for, and is a fraction of the whole.
 */
import { readFileSync } from 'node:fs';
import { create, type Font } from 'fontkitten';
import { describe, expect, it } from 'vitest';
import {
  FontPastLimit,
  charactersOf,
  fallbackFontFor,
  fontAsSfnt,
  fontNamesOf,
} from '../../server/media/subtitle-fonts.ts';
import { unpackWoff } from '../../src/lib/subtitles/woff.ts';

const FILES = 'node_modules/@fontsource/noto-sans-sc/files';
const read = (path: string) => new Uint8Array(readFileSync(path));
const font = (bytes: Uint8Array) => create(Buffer.from(bytes)) as Font;
const WHOLE_FALLBACK = `${FILES}/noto-sans-sc-chinese-simplified-400-normal.woff`;

describe('fontAsSfnt', () => {
  it('unpacks a WOFF to the TrueType file inside it', async () => {
    const woff = read(`${FILES}/noto-sans-sc-latin-400-normal.woff`);
    const sfnt = await fontAsSfnt(woff, 20e6);
    expect(Buffer.from(sfnt.subarray(0, 4))).toEqual(Buffer.from([0, 1, 0, 0]));
    expect(Buffer.from(sfnt).equals(Buffer.from(await unpackWoff(woff)))).toBe(true);
  });

  it('unpacks a WOFF2 to a TrueType file with the same glyphs, names and characters', async () => {
    for (const name of ['noto-sans-sc-chinese-simplified-700-normal', 'noto-sans-sc-latin-400-normal']) {
      const woff2 = read(`${FILES}/${name}.woff2`);
      const sfnt = await fontAsSfnt(woff2, 20e6);
      expect(Buffer.from(sfnt.subarray(0, 4))).toEqual(Buffer.from([0, 1, 0, 0]));
      // The declared size of the font inside is what comes out.
      expect(sfnt.byteLength).toBe(new DataView(woff2.buffer, woff2.byteOffset).getUint32(16));
      const packed = font(woff2);
      const plain = font(sfnt);
      expect(plain.familyName).toBe(packed.familyName);
      expect(plain.numGlyphs).toBe(packed.numGlyphs);
      expect(plain.characterSet).toEqual(packed.characterSet);
      // And the same outline for a glyph (a kanji in the CJK file, a letter in the Latin one).
      const probe = name.includes('chinese') ? '星' : 'K';
      expect(plain.glyphForCodePoint(probe.codePointAt(0)!).path.toSVG()).toBe(
        packed.glyphForCodePoint(probe.codePointAt(0)!).path.toSVG(),
      );
    }
  });

  it('passes TrueType through and refuses a bomb or a damaged file', async () => {
    const ttf = await fontAsSfnt(read(`${FILES}/noto-sans-sc-latin-400-normal.woff`), 20e6);
    expect(await fontAsSfnt(ttf, 10)).toBe(ttf);
    const woff2 = read(`${FILES}/noto-sans-sc-latin-400-normal.woff2`);
    // Claims more than the limit: refused before anything is unpacked.
    await expect(fontAsSfnt(woff2, 1000)).rejects.toBeInstanceOf(FontPastLimit);
    await expect(fontAsSfnt(woff2.slice(0, 3000), 20e6)).rejects.toThrow();
    await expect(fontAsSfnt(read(`${FILES}/noto-sans-sc-latin-400-normal.woff`).slice(0, 2000), 20e6)).rejects.toThrow(
      /WOFF/,
    );
  });
});

describe('a track’s cut of the fallback font', () => {
  it('collects the characters the lines show, once each, with the entities WebVTT needs undone', () => {
    const cues = [
      { start: 0, end: 1, text: '星を見に\n行こう' },
      { start: 1, end: 2, text: 'A &amp; B &lt;3 看板看板' },
    ];
    expect([...charactersOf(cues)].sort()).toEqual([...' \u00a0星を見に行こうA&B<3看板'].sort());
  });

  it('keeps exactly those characters the fallback has, under the family name libass matches', async () => {
    const characters = charactersOf([
      { start: 0, end: 1, text: '今日はいい天気ですね、ありがとう。这首歌我听了一百遍 Kiraboshi! 🌟' },
    ]);
    const cut = await fallbackFontFor(characters);
    const wholeBytes = await unpackWoff(read(WHOLE_FALLBACK));
    const whole = font(wholeBytes);
    const mine = font(cut);
    expect(Buffer.from(cut.subarray(0, 4))).toEqual(Buffer.from([0, 1, 0, 0]));
    // libass picks its default family by this name (src/lib/subtitles/ass-renderer.ts).
    expect(mine.familyName).toBe(whole.familyName);
    expect(mine.familyName.toLowerCase()).toBe('noto sans sc thin');
    const wanted = [...characters]
      .map((c) => c.codePointAt(0)!)
      .filter((cp) => whole.hasGlyphForCodePoint(cp))
      .sort((a, b) => a - b);
    // (0xFFFF is the end marker of the cmap's last segment, not a character.)
    expect(mine.characterSet.filter((cp) => cp !== 0xffff).sort((a, b) => a - b)).toEqual(wanted);
    // The star is not in the fallback, so not in the cut either; the kanji are, drawn the same.
    expect(mine.hasGlyphForCodePoint(0x1f31f)).toBe(false);
    expect(mine.glyphForCodePoint(0x5929).path.toSVG()).toBe(whole.glyphForCodePoint(0x5929).path.toSVG());
    expect(cut.byteLength).toBeLessThan(30_000);
    expect(cut.byteLength * 50).toBeLessThan(wholeBytes.byteLength);
  });
});

describe('the names a font answers to', () => {
  it('reads the family, full and PostScript names as libass matches a script’s font names, and null for what is no font', async () => {
    const sfnt = (path: string) => fontAsSfnt(read(path), 20e6);
    // @fontsource's CJK file names its family "Noto Sans SC Thin", its Latin one "Noto Sans SC".
    expect(fontNamesOf(await sfnt(`${FILES}/noto-sans-sc-chinese-simplified-700-normal.woff2`))).toEqual([
      'noto sans sc thin',
      'noto sans sc thin bold',
      'notosansscthin-bold',
    ]);
    expect(fontNamesOf(await sfnt(`${FILES}/noto-sans-sc-latin-400-normal.woff`))).toEqual([
      'noto sans sc',
      'noto sans sc regular',
      'notosanssc-regular',
    ]);
    expect(fontNamesOf(await sfnt('node_modules/jassub/dist/default.woff2'))).toEqual([
      'liberation sans',
      'liberationsans',
    ]);
    expect(fontNamesOf(new TextEncoder().encode('This is not a font, whatever its name says.'))).toBeNull();
  });
});
