/**
 * Subtitle files as uploaders bring them (ASS, SRT, WebVTT), read with kept parsers and turned
 * into plain WebVTT for every player that cannot draw ASS (the native players of the master
 * playlist, the browser's own cues). ASS is read by `ass-compiler` (the parser jassub's authors
 * and other web players use); SRT and WebVTT by `media-captions` (Vidstack's spec-following
 * parser, strict mode: a broken header or timing is an error, not a guess).
 */
import { compile } from 'ass-compiler';
import { parseText } from 'media-captions';
import type { SubtitleFormat } from '../../src/lib/api/contracts/subtitle.constants.ts';

/** One cue of the WebVTT made from any format: seconds, and cue text already safe in WebVTT. */
export interface SubtitleCue {
  start: number;
  end: number;
  text: string;
  top?: boolean;
}

export class MalformedSubtitle extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedSubtitle';
  }
}

/** Most cues one file may hold (a 24-minute fansub has a few thousand events, signs included). */
export const MAX_CUES = 50_000;

/** `&`, `<` and `>` as WebVTT cue text needs them (text that came without markup). */
const escapeCueText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The inline markup of SRT and WebVTT kept in the converted file; anything else (fonts, colours, classes) is dropped. */
const KEPT_TAG = /^<\/?(i|b|u|ruby|rt)>$/i;
function cleanMarkup(text: string): string {
  return text
    .split(/(<[^<>]*>)/)
    .map((piece) => {
      if (piece.startsWith('<') && piece.endsWith('>')) return KEPT_TAG.test(piece) ? piece.toLowerCase() : '';
      // Entities WebVTT knows stay; a bare & or < becomes one.
      return piece
        .replace(/&(?!(amp|lt|gt|nbsp|lrm|rlm);)/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;');
    })
    .join('')
    .trim();
}

/**
 * A font name as libass looks it up: without the `@` that asks for vertical writing, and in any
 * case (libass compares names without case).
 */
export const fontNameKey = (name: string) => name.trim().replace(/^@/, '').trim().toLowerCase();

/**
 * ASS events as cues: the text of each line without override tags; drawings (signs' shapes) and
 * empty lines left out. `fonts` collects the font names the lines are drawn in: the Fontname of
 * each style a line uses and every `\fn` override.
 */
function assCues(text: string, fonts: Set<string>): SubtitleCue[] {
  if (!/^\s*\[Events\]\s*$/im.test(text) || !/^\s*Format\s*:/im.test(text))
    throw new MalformedSubtitle('no [Events] section with a Format line');
  let compiled: ReturnType<typeof compile>;
  try {
    compiled = compile(text, {});
  } catch (error) {
    throw new MalformedSubtitle(error instanceof Error ? error.message : 'unreadable');
  }
  const cues: SubtitleCue[] = [];
  const named = (name: string | undefined) => {
    const key = name ? fontNameKey(name) : '';
    if (key) fonts.add(key);
  };
  for (const dialogue of compiled.dialogues) {
    if (!Number.isFinite(dialogue.start) || !Number.isFinite(dialogue.end) || dialogue.end <= dialogue.start) continue;
    for (const slice of dialogue.slices) {
      named(compiled.styles[slice.style]?.style.Fontname);
      for (const fragment of slice.fragments) named(fragment.tag.fn);
    }
    const plain = dialogue.slices
      .flatMap((slice) => slice.fragments)
      .filter((fragment) => !fragment.drawing)
      .map((fragment) => fragment.text)
      .join('')
      .replace(/\\[Nn]/g, '\n')
      .replace(/\\h/g, '\u00a0')
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n');
    if (plain)
      cues.push({ start: dialogue.start, end: dialogue.end, text: escapeCueText(plain), top: dialogue.alignment >= 7 });
  }
  return cues;
}

async function textTrackCues(text: string, type: 'srt' | 'vtt'): Promise<SubtitleCue[]> {
  let parsed: Awaited<ReturnType<typeof parseText>>;
  try {
    parsed = await parseText(text, { type, strict: true });
  } catch (error) {
    throw new MalformedSubtitle(error instanceof Error ? error.message : 'unreadable');
  }
  if (parsed.errors.length) throw new MalformedSubtitle(parsed.errors[0]!.message);
  return parsed.cues
    .filter((cue) => Number.isFinite(cue.startTime) && cue.endTime > cue.startTime)
    .map((cue) => ({ start: cue.startTime, end: cue.endTime, text: cleanMarkup(cue.text) }))
    .filter((cue) => cue.text);
}

/** A subtitle file as read: its cues, and for ASS the font names its lines use (fontNameKey; none for SRT and WebVTT). */
export interface ReadSubtitle {
  cues: SubtitleCue[];
  fonts: string[];
}

/**
 * The cues of a subtitle file, in time order; MalformedSubtitle when the parser refuses it or it
 * holds no line at all (a file of another format, or not a subtitle file).
 */
export async function readSubtitle(text: string, format: SubtitleFormat): Promise<ReadSubtitle> {
  const source = text.replace(/^\uFEFF/, '');
  const fonts = new Set<string>();
  const cues = format === 'ass' ? assCues(source, fonts) : await textTrackCues(source, format);
  if (!cues.length) throw new MalformedSubtitle('no subtitle line found');
  if (cues.length > MAX_CUES) throw new MalformedSubtitle(`more than ${MAX_CUES} lines`);
  return { cues: cues.sort((a, b) => a.start - b.start || a.end - b.end), fonts: [...fonts].sort() };
}

/** Seconds as a WebVTT timestamp, `HH:MM:SS.mmm`. */
export function vttTimestamp(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** Cues as a WebVTT file (top-aligned ASS lines stay at the top). */
export function toWebVtt(cues: readonly SubtitleCue[]): string {
  const blocks = cues.map(
    (cue) =>
      `${vttTimestamp(cue.start)} --> ${vttTimestamp(cue.end)}${cue.top ? ' line:0' : ''}\n${cue.text.replace(/\n{2,}/g, '\n')}`,
  );
  return `WEBVTT\n\n${blocks.join('\n\n')}\n`;
}
