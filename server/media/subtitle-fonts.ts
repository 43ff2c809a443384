/**
 * Fonts made ready for libass at processing time, so the player hands it plain sfnt bytes and
 * nothing is unpacked or cut in the browser (issue 29, the first line within 300 ms):
 * - a font attached to an uploaded MKV as WOFF or WOFF2 is stored as the TrueType/OpenType file
 *   inside it (FreeType in WebAssembly unpacked a WOFF2 each time libass opened it: once when it
 *   listed its fonts, again when a line first used it);
 * - each ASS track gets its own cut of the bundled CJK fallback font, holding only the characters
 *   its lines use (a few kilobytes instead of 2.5 MB for libass to copy, open and search).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { create as readFont, type Font } from 'fontkitten';
import fontverter from 'fontverter';
import subsetFont from 'subset-font';
import { unpackWoff } from '../../src/lib/subtitles/woff.ts';
import { fontNameKey, type SubtitleCue } from './subtitle-formats.ts';

/**
 * The player's whole fallback (src/lib/subtitles/ass-files.ts names the same file): @fontsource's
 * simplified Chinese Noto Sans SC, with Latin, kana and about 7 900 CJK characters.
 */
const FALLBACK_MODULE = '@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-400-normal.woff';

/** A WOFF or WOFF2 file claims the size of the font inside it at byte 16 (`totalSfntSize`). */
const declaredSfntSize = (bytes: Uint8Array) =>
  bytes.byteLength >= 20 ? new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(16) : 0;

/** A WOFF or WOFF2 that would unpack past the limit it was given. */
export class FontPastLimit extends Error {}

const tag = (bytes: Uint8Array) => String.fromCharCode(...bytes.subarray(0, 4));

/**
 * The sfnt inside a WOFF or WOFF2 font (TrueType, OpenType and collections come back as they
 * are). Refused (throws) when damaged, or when it claims to unpack to more than `maxBytes`.
 */
export async function fontAsSfnt(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const kind = tag(bytes);
  if (kind !== 'wOFF' && kind !== 'wOF2') return bytes;
  if (declaredSfntSize(bytes) > maxBytes) throw new FontPastLimit('font unpacks past the limit');
  const sfnt =
    kind === 'wOFF'
      ? await unpackWoff(bytes)
      : new Uint8Array(
          await fontverter.convert(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), 'sfnt', 'woff2'),
        );
  if (sfnt.byteLength > maxBytes) throw new FontPastLimit('font unpacks past the limit');
  return sfnt;
}

let wholeFallback: Promise<Uint8Array> | null = null;

/** The whole fallback font as sfnt, unpacked once per process. */
function fallbackSfnt(): Promise<Uint8Array> {
  wholeFallback ??= readFile(fileURLToPath(import.meta.resolve(FALLBACK_MODULE))).then((woff) =>
    unpackWoff(new Uint8Array(woff)),
  );
  wholeFallback.catch(() => {
    wholeFallback = null;
  });
  return wholeFallback;
}

/** Text as cues carry it (`&amp;`, `&lt;`, `&gt;` escaped for WebVTT) back to its characters. */
const unescapeCueText = (text: string) => text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** Every character the lines show, once each (line breaks and other controls left out; the spaces kept). */
export function charactersOf(cues: readonly SubtitleCue[]): string {
  const seen = new Set<string>([' ', '\u00a0']);
  for (const cue of cues)
    for (const character of unescapeCueText(cue.text)) if (!/\p{Cc}/u.test(character)) seen.add(character);
  return [...seen].join('');
}

/**
 * The fallback font cut down to `characters` (those the fallback has; its name, and so the family
 * libass knows it by, unchanged), as a TrueType file; hinting is left out (libass draws unhinted).
 */
export async function fallbackFontFor(characters: string): Promise<Uint8Array> {
  const whole = await fallbackSfnt();
  return new Uint8Array(
    await subsetFont(Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength), characters, {
      targetFormat: 'sfnt',
      noHinting: true,
    }),
  );
}

/** The name table's entries libass may match a requested font against, in every language the font gives them. */
const MATCHED_NAMES = ['fontFamily', 'preferredFamily', 'fullName', 'postscriptName'] as const;

/**
 * The names a font answers to when a script asks for it (its family, typographic family, full and
 * PostScript names, as fontNameKey makes them; every face of a collection), so a track is given
 * only the attachments its styles and `\fn` overrides name. null when the font cannot be read here:
 * such a font is given to every track, as all were before.
 */
export function fontNamesOf(bytes: Uint8Array): string[] | null {
  try {
    const read = readFont(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const names = new Set<string>();
    for (const face of read.isCollection ? read.fonts : [read]) {
      const records =
        (
          face as Font & {
            name?: { records?: Partial<Record<(typeof MATCHED_NAMES)[number], Record<string, string>>> };
          }
        ).name?.records ?? {};
      for (const id of MATCHED_NAMES) for (const name of Object.values(records[id] ?? {})) names.add(fontNameKey(name));
      for (const name of [face.familyName, face.fullName, face.postscriptName]) if (name) names.add(fontNameKey(name));
    }
    names.delete('');
    return names.size ? [...names].sort() : null;
  } catch {
    return null;
  }
}
