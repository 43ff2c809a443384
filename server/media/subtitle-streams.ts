/**
 * The subtitle and attachment streams of an uploaded MKV or MP4 (issue 29, "from the upload"):
 * text subtitles (ASS/SSA, SubRip, mov_text, WebVTT) extracted with ffmpeg to files that become
 * the part's tracks; fonts attached to the file kept for its ASS tracks, each accepted only by its
 * magic bytes and within the limits; bitmap subtitles (PGS, VobSub, DVB) and anything else noted
 * for the uploader, never turned into tracks.
 */
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { compressBody } from '../http/content-encoding.ts';
import { join } from 'node:path';
import type { StreamNote, StreamSubtitles, StreamTrack } from '../db/schema.ts';
import {
  STREAM_FONT_MAX_BYTES,
  STREAM_FONTS_MAX,
  STREAM_FONTS_MAX_TOTAL_BYTES,
  canonicalLanguageTag,
  type SubtitleFormat,
} from '../../src/lib/api/contracts/subtitle.constants.ts';
import { binaryPath, run } from './ffmpeg.ts';
import { FontPastLimit, fontAsSfnt, fontNamesOf } from './subtitle-fonts.ts';

/** Text subtitle codecs (ffprobe's names) and the format each is extracted to (mov_text has no file of its own: SubRip). */
const TEXT_CODECS: Record<string, SubtitleFormat> = {
  ass: 'ass',
  ssa: 'ass',
  subrip: 'srt',
  srt: 'srt',
  mov_text: 'srt',
  webvtt: 'vtt',
};
/** Picture-based subtitles: drawn bitmaps with no text to read. */
const BITMAP_CODECS = new Set(['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle', 'xsub', 'dvb_teletext']);
/** ffmpeg's encoder and muxer for each format. */
const OUTPUT: Record<SubtitleFormat, string[]> = {
  ass: ['-c:s', 'ass', '-f', 'ass'],
  srt: ['-c:s', 'srt', '-f', 'srt'],
  vtt: ['-c:s', 'webvtt', '-f', 'webvtt'],
};

/** A font file by its first four bytes: TrueType (00 01 00 00 or 'true'), OpenType CFF, a collection, WOFF, WOFF2; else null. */
export function fontExtension(head: Buffer): string | null {
  const tag = head.subarray(0, 4);
  if (tag.equals(Buffer.from([0, 1, 0, 0])) || tag.toString('latin1') === 'true') return 'ttf';
  return (
    ({ OTTO: 'otf', ttcf: 'ttc', wOFF: 'woff', wOF2: 'woff2' } as Record<string, string>)[tag.toString('latin1')] ??
    null
  );
}

/** A stream's `language` tag as BCP 47 (ISO 639-2 `jpn`, `chi`, `zho` → `ja`, `zh`; a missing or unreadable one → `und`). */
export function streamLanguage(tag: string | undefined): string {
  const canonical = tag && tag !== 'und' ? canonicalLanguageTag(tag.trim()) : null;
  return canonical ?? 'und';
}

/** The track's label: the stream's title, else the language's own name (日本語, 中文, English), else its number. */
export function streamLabel(title: string | undefined, language: string, position: number): string {
  const own = title?.replace(/\p{Cc}+/gu, ' ').trim();
  if (own) return [...own].slice(0, 80).join('');
  if (language !== 'und') {
    try {
      const name = new Intl.DisplayNames([language], { type: 'language' }).of(language);
      if (name && name !== language) return name;
    } catch {
      /* a tag Intl cannot name: its number below */
    }
  }
  return `#${position}`;
}

interface ProbedStream {
  index: number;
  codec_type?: string;
  codec_name?: string;
  extradata_size?: number;
  tags?: Record<string, string>;
}

async function probeStreams(input: string): Promise<ProbedStream[]> {
  const { code, stdout } = await run(binaryPath('ffprobe'), [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_streams',
    input,
  ]);
  if (code !== 0) return [];
  return (JSON.parse(stdout || '{}') as { streams?: ProbedStream[] }).streams ?? [];
}
/** Tags as ffprobe gives them, with any case (`LANGUAGE`, `Title` in some muxers). */
const tagOf = (stream: ProbedStream, name: string) =>
  Object.entries(stream.tags ?? {}).find(([key]) => key.toLowerCase() === name)?.[1];

/**
 * Reads the streams of `input` and writes into `folder` what is kept: `streams/{n}.{format}` for
 * each text subtitle and `fonts/{n}.{ext}` for each font (only when there is an ASS track to use
 * them). Answers the tracks, fonts and notes, with file names relative to `folder`. Never throws
 * for a bad stream: a stream ffmpeg cannot extract is noted as malformed.
 */
export async function extractSubtitleStreams(
  input: string,
  folder: string,
  options: { signal?: AbortSignal } = {},
): Promise<StreamSubtitles> {
  const streams = await probeStreams(input);
  const subtitles = streams.filter((s) => s.codec_type === 'subtitle');
  const notes: StreamNote[] = [];
  const wanted: Array<StreamTrack & { index: number }> = [];
  for (const [n, stream] of subtitles.entries()) {
    const codec = stream.codec_name ?? 'unknown';
    const format = TEXT_CODECS[codec];
    if (!format) {
      notes.push({ stream: n + 1, code: BITMAP_CODECS.has(codec) ? 'SUBTITLE_BITMAP' : 'SUBTITLE_UNSUPPORTED', codec });
      continue;
    }
    const language = streamLanguage(tagOf(stream, 'language'));
    wanted.push({
      index: stream.index,
      stream: n + 1,
      format,
      language,
      label: streamLabel(tagOf(stream, 'title'), language, n + 1),
      file: `streams/${n + 1}.${format}`,
    });
  }
  const tracks: StreamTrack[] = [];
  if (wanted.length) {
    await mkdir(join(folder, 'streams'), { recursive: true });
    const outputs = (track: (typeof wanted)[number]) => [
      '-map',
      `0:${track.index}`,
      ...OUTPUT[track.format],
      join(folder, track.file),
    ];
    // All in one read of the file; when that fails, each alone, so one broken stream loses only itself.
    const together = await run(
      binaryPath('ffmpeg'),
      ['-y', '-v', 'error', '-i', input, ...wanted.flatMap(outputs)],
      600_000,
      options,
    );
    for (const track of wanted) {
      const made =
        together.code === 0 ||
        (await run(binaryPath('ffmpeg'), ['-y', '-v', 'error', '-i', input, ...outputs(track)], 600_000, options))
          .code === 0;
      const size = made
        ? await stat(join(folder, track.file)).then(
            (s) => s.size,
            () => 0,
          )
        : 0;
      if (size > 0)
        tracks.push({
          stream: track.stream,
          format: track.format,
          language: track.language,
          label: track.label,
          file: track.file,
        });
      else notes.push({ stream: track.stream, code: 'SUBTITLE_MALFORMED', codec: track.format });
    }
  }
  const { fonts, fontNames } = tracks.some((t) => t.format === 'ass')
    ? await keepFonts(input, streams, folder, notes, options)
    : { fonts: [], fontNames: {} };
  return { tracks, fonts, fontNames, notes };
}

/**
 * Attachments dumped by ffmpeg, kept when their magic bytes say font and the limits allow; the rest
 * noted. Each kept font's names are read now, so each track is later given only the ones it names.
 */
async function keepFonts(
  input: string,
  streams: ProbedStream[],
  folder: string,
  notes: StreamNote[],
  options: { signal?: AbortSignal },
): Promise<Pick<StreamSubtitles, 'fonts' | 'fontNames'>> {
  const fontNames: Record<string, string[]> = {};
  const attachments = streams.filter((s) => s.codec_type === 'attachment');
  if (!attachments.length) return { fonts: [], fontNames };
  const dir = join(folder, 'fonts');
  await mkdir(dir, { recursive: true });
  const dumps = attachments.map((s) => ({ stream: s, path: join(dir, `attachment-${s.index}`) }));
  // Too large by its header is never written; the rest dumped in one run (ffmpeg then
  // complains that no output was named: its exit code says nothing about the dumps).
  const small = dumps.filter((d) => (d.stream.extradata_size ?? 0) <= STREAM_FONT_MAX_BYTES);
  if (small.length) {
    await run(
      binaryPath('ffmpeg'),
      ['-y', '-v', 'error', ...small.flatMap((d) => [`-dump_attachment:${d.stream.index}`, d.path]), '-i', input],
      120_000,
      options,
    );
  }
  const kept: string[] = [];
  let total = 0;
  for (const [n, { stream, path }] of dumps.entries()) {
    const note = (code: string) => notes.push({ stream: n + 1, code, codec: tagOf(stream, 'filename')?.slice(0, 100) });
    const size = await stat(path).then(
      (s) => s.size,
      () => -1,
    );
    if (size < 0 && (stream.extradata_size ?? 0) > STREAM_FONT_MAX_BYTES) {
      note('FONTS_LIMIT');
      continue;
    }
    const ext = size > 0 ? fontExtension(await readHead(path)) : null;
    if (!ext) note('FONT_REFUSED');
    else if (
      kept.length >= STREAM_FONTS_MAX ||
      size > STREAM_FONT_MAX_BYTES ||
      total + size > STREAM_FONTS_MAX_TOTAL_BYTES
    )
      note('FONTS_LIMIT');
    else {
      // The limits count the font as attached; a WOFF or WOFF2 is stored as the sfnt inside it.
      const sfnt = await plainFont(await readFile(path));
      if (sfnt) {
        const name = `${kept.length + 1}.${sfnt.ext}`;
        await writeFile(join(dir, name), sfnt.bytes);
        // Sent brotli-compressed, made now rather than on the first viewer's request (a second for a CJK font).
        await writeFile(join(dir, `${name}.br`), await compressBody(sfnt.bytes, 'br', 'max'));
        kept.push(name);
        const names = fontNamesOf(sfnt.bytes);
        if (names) fontNames[name] = names;
        total += size;
      } else note(sfnt === null ? 'FONT_REFUSED' : 'FONTS_LIMIT');
    }
    await rm(path, { force: true });
  }
  return { fonts: kept, fontNames };
}

/** How far a WOFF or WOFF2 may unpack: a font several times its packed size is usual, a bomb is not. */
const UNPACKED_FONT_MAX_BYTES = 4 * STREAM_FONT_MAX_BYTES;

/**
 * A kept font as libass takes it at once: TrueType, OpenType and collections as they are, a WOFF
 * or WOFF2 as the sfnt inside it. null when it cannot be unpacked (damaged), false when it would
 * unpack past UNPACKED_FONT_MAX_BYTES.
 */
async function plainFont(file: Buffer): Promise<{ ext: string; bytes: Uint8Array } | null | false> {
  try {
    const bytes = await fontAsSfnt(
      new Uint8Array(file.buffer, file.byteOffset, file.byteLength),
      UNPACKED_FONT_MAX_BYTES,
    );
    const ext = fontExtension(Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(4, bytes.byteLength)));
    return ext && ext !== 'woff' && ext !== 'woff2' ? { ext, bytes } : null;
  } catch (error) {
    return error instanceof FontPastLimit ? false : null;
  }
}

async function readHead(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    await file.read(head, 0, 4, 0);
    return head;
  } finally {
    await file.close();
  }
}
