/** Plain values of subtitle tracks, for the server and the browser alike (no zod: the schemas are in subtitle.ts). */
export const SUBTITLE_FORMATS = ['ass', 'srt', 'vtt'] as const;
export type SubtitleFormat = (typeof SUBTITLE_FORMATS)[number];
/** Largest subtitle file, in UTF-8 bytes (a long fansub ASS with its styles is well under). */
export const SUBTITLE_MAX_BYTES = 4 * 1024 * 1024;
export const SUBTITLE_LABEL_MAX = 80;
/** Tracks one part may have. */
export const SUBTITLES_PER_PART = 20;
/** Largest Bilibili XML file of danmaku to import. */
export const DANMAKU_XML_MAX_BYTES = 5 * 1024 * 1024;

/** The canonical form of a BCP 47 tag (`zh-hans` → `zh-Hans`), or null when it is not one. */
export function canonicalLanguageTag(tag: string): string | null {
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/**
 * Why a subtitle or attachment stream of an uploaded file did not become a track or a font, as
 * the processing report tells its uploader: a picture-based subtitle (PGS, VobSub, DVB), another
 * kind the site cannot read, a text stream refused as malformed, one past the part's track limit,
 * an attachment that is not a font, fonts past the limits.
 */
export const STREAM_NOTE_CODES = [
  'SUBTITLE_BITMAP',
  'SUBTITLE_UNSUPPORTED',
  'SUBTITLE_MALFORMED',
  'SUBTITLES_LIMIT',
  'FONT_REFUSED',
  'FONTS_LIMIT',
] as const;
export type StreamNoteCode = (typeof STREAM_NOTE_CODES)[number];
/** Fonts kept from one file's attachments: how many, each at most, all together at most. */
export const STREAM_FONTS_MAX = 20;
export const STREAM_FONT_MAX_BYTES = 20 * 1024 * 1024;
export const STREAM_FONTS_MAX_TOTAL_BYTES = 50 * 1024 * 1024;
