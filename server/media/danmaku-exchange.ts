/**
 * Danmaku as other players and tools read and write them: Bilibili's XML
 * (`<d p="time,mode,size,color,timestamp,pool,sender,id">text</d>`, what danmaku2ass,
 * DanmakuFactory and players' danmaku loaders take), and ASS laid out as danmaku2ass does
 * (scrolling lanes, top and bottom, colours) for players without a danmaku layer (mpv, VLC).
 *
 * The XML is read with fast-xml-parser: pure JavaScript with no DTD processing and no external
 * entities or network access at all; and any DOCTYPE or ENTITY declaration is refused before it
 * parses, so nothing can expand (billion laughs) — only XML's five own entities and character
 * references are decoded, which cannot grow the text.
 */
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';
import type { DanmakuMode, DanmakuSize } from '../../src/lib/api/contracts/interaction.constants.ts';
import { DANMAKU_TEXT_MAX } from '../../src/lib/api/contracts/interaction.constants.ts';
import { vttTimestamp } from './subtitle-formats.ts';

export class MalformedDanmakuXml extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'MalformedDanmakuXml';
  }
}

/** A danmaku read from a file: no id, no sender. */
export interface ImportedDanmaku {
  time: number;
  mode: DanmakuMode;
  fontSize: DanmakuSize;
  color: string;
  text: string;
  sentAt: number;
}

/** Most `<d>` elements one file may hold (Bilibili's biggest pools are a few tens of thousands). */
export const MAX_XML_DANMAKU = 100_000;

// Bilibili's modes: 1-3 scroll right to left, 4 bottom, 5 top, 6 left to right; 7 (positioned) and 8 (code) have no equal here.
const MODE_OF: Record<number, DanmakuMode> = { 1: 'rtl', 2: 'rtl', 3: 'rtl', 4: 'bottom', 5: 'top', 6: 'ltr' };
const CODE_OF: Record<DanmakuMode, number> = { rtl: 1, bottom: 4, top: 5, ltr: 6 };
// Bilibili's sizes: 18 small, 25 medium, 36 large (12-64 exist; the nearest of ours is taken).
const SIZE_CODE: Record<DanmakuSize, number> = { small: 18, medium: 25, large: 36 };
const sizeOf = (code: number): DanmakuSize => (code < 22 ? 'small' : code <= 30 ? 'medium' : 'large');

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Danmaku as a Bilibili XML file (sender hashes 0: no sender ids leave the site). */
export function toBilibiliXml(danmaku: readonly Danmaku[], videoId: number): string {
  const lines = danmaku.map((d) => {
    const p = [
      d.time.toFixed(5),
      CODE_OF[d.mode],
      SIZE_CODE[d.fontSize],
      parseInt(d.color, 16),
      Math.floor(d.editDateTime / 1000),
      0,
      0,
      d.id,
    ].join(',');
    return `  <d p="${p}">${escapeXml(d.text)}</d>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<i>\n  <chatserver>kiraboshi</chatserver>\n  <chatid>${videoId}</chatid>\n  <maxlimit>${danmaku.length}</maxlimit>\n${lines.join('\n')}\n</i>\n`;
}

/**
 * The danmaku of a Bilibili XML file, in time order. Elements that have no equal here
 * (positioned and code danmaku, empty or too long text, bad numbers) are skipped and counted.
 */
export function parseBilibiliXml(xml: string): { danmaku: ImportedDanmaku[]; skipped: number } {
  const text = xml.replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(text))
    throw new MalformedDanmakuXml('DOCTYPE and ENTITY declarations are not allowed');
  const valid = XMLValidator.validate(text);
  if (valid !== true) throw new MalformedDanmakuXml(`${valid.err.msg} (line ${valid.err.line})`);
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: false,
    isArray: (name) => name === 'd',
  });
  const root = parser.parse(text) as { i?: { d?: Array<{ p?: string; '#text'?: string } | string> } };
  if (!root.i || typeof root.i !== 'object') throw new MalformedDanmakuXml('the root element is not <i>');
  const elements = root.i.d ?? [];
  if (elements.length > MAX_XML_DANMAKU) throw new MalformedDanmakuXml(`more than ${MAX_XML_DANMAKU} danmaku`);
  const danmaku: ImportedDanmaku[] = [];
  let skipped = 0;
  for (const element of elements) {
    const fields = typeof element === 'object' ? (element.p ?? '').split(',') : [];
    const body = (typeof element === 'object' ? String(element['#text'] ?? '') : '')
      .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
      .trim();
    const [time, mode, size, color, sentAt] = fields.map(Number);
    const shownMode = MODE_OF[mode!];
    if (
      fields.length < 4 ||
      !Number.isFinite(time) ||
      time! < 0 ||
      !shownMode ||
      !Number.isFinite(size) ||
      !Number.isInteger(color) ||
      color! < 0 ||
      color! > 0xffffff ||
      !body ||
      [...body].length > DANMAKU_TEXT_MAX
    ) {
      skipped += 1;
      continue;
    }
    danmaku.push({
      time: time!,
      mode: shownMode,
      fontSize: sizeOf(size!),
      color: color!.toString(16).padStart(6, '0'),
      text: body,
      sentAt: Number.isFinite(sentAt) && sentAt! > 0 ? sentAt! * 1000 : 0,
    });
  }
  return { danmaku: danmaku.sort((a, b) => a.time - b.time), skipped };
}

// ---- ASS as danmaku2ass lays it out ----

const STAGE_WIDTH = 1920;
const STAGE_HEIGHT = 1080;
/** Seconds a scrolling danmaku crosses the stage in, and a top or bottom one stays (danmaku2ass's defaults). */
const SCROLL_SECONDS = 5;
const STILL_SECONDS = 5;
/** Pixel sizes on the 1080-line stage (Bilibili's sizes are for a 540-line player). */
const FONT_PX: Record<DanmakuSize, number> = { small: 36, medium: 50, large: 72 };

/** Width of a line in pixels: full-width characters a whole em, the rest half. */
const widthOf = (text: string, px: number) =>
  [...text].reduce((sum, ch) => sum + (/[\u1100-\uffff]/.test(ch) ? px : px / 2), 0);
const assTime = (seconds: number) => {
  const [h, m, s] = vttTimestamp(seconds).split(':');
  return `${Number(h)}:${m}:${s!.slice(0, 5)}`; // H:MM:SS.cc
};
const assText = (text: string) =>
  text.replace(/\\/g, '\\\u200b').replace(/\{/g, '｛').replace(/\}/g, '｝').replace(/\n/g, ' ');
/** #rrggbb as ASS's &HBBGGRR&. */
const assColour = (hex: string) => `&H${hex.slice(4, 6)}${hex.slice(2, 4)}${hex.slice(0, 2)}&`.toUpperCase();

/**
 * Danmaku as an ASS file: scrolling ones move across in lanes (a lane takes the next once the
 * last has wholly entered the stage), top and bottom ones hold lanes until they leave; when every
 * lane is busy the one freed soonest is taken, as danmaku2ass does.
 */
export function toDanmakuAss(danmaku: readonly Danmaku[], title: string): string {
  const laneHeight = FONT_PX.medium + 4;
  const laneCount = Math.floor(STAGE_HEIGHT / laneHeight);
  const freeAt: Record<'scroll' | 'top' | 'bottom', number[]> = {
    scroll: Array(laneCount).fill(0),
    top: Array(laneCount).fill(0),
    bottom: Array(laneCount).fill(0),
  };
  const takeLane = (kind: keyof typeof freeAt, at: number, until: number) => {
    const lanes = freeAt[kind];
    let lane = lanes.findIndex((free) => free <= at);
    if (lane < 0) lane = lanes.indexOf(Math.min(...lanes));
    lanes[lane] = until;
    return lane;
  };
  const events = [...danmaku]
    .sort((a, b) => a.time - b.time)
    .map((d) => {
      const px = FONT_PX[d.fontSize];
      const width = widthOf(d.text, px);
      const colour = d.color.toLowerCase() === 'ffffff' ? '' : `\\c${assColour(d.color)}`;
      const size = d.fontSize === 'medium' ? '' : `\\fs${px}`;
      let tags: string;
      let end: number;
      if (d.mode === 'top' || d.mode === 'bottom') {
        end = d.time + STILL_SECONDS;
        const lane = takeLane(d.mode, d.time, end);
        tags =
          d.mode === 'top'
            ? `\\an8\\pos(${STAGE_WIDTH / 2},${lane * laneHeight})`
            : `\\an2\\pos(${STAGE_WIDTH / 2},${STAGE_HEIGHT - lane * laneHeight})`;
      } else {
        end = d.time + SCROLL_SECONDS;
        // Wholly on the stage once it has moved its own width.
        const lane = takeLane('scroll', d.time, d.time + (SCROLL_SECONDS * width) / (STAGE_WIDTH + width));
        const y = lane * laneHeight;
        const [from, to] = d.mode === 'rtl' ? [STAGE_WIDTH, -width] : [-width, STAGE_WIDTH];
        tags = `\\move(${from},${y},${Math.round(to)},${y})`;
      }
      return `Dialogue: 2,${assTime(d.time)},${assTime(end)},Danmaku,,0000,0000,0000,,{${tags}${colour}${size}}${assText(d.text)}`;
    });
  return [
    '[Script Info]',
    `Title: ${assText(title)}`,
    'ScriptType: v4.00+',
    `PlayResX: ${STAGE_WIDTH}`,
    `PlayResY: ${STAGE_HEIGHT}`,
    'WrapStyle: 2',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Danmaku,Noto Sans CJK SC,${FONT_PX.medium},&H33FFFFFF,&H33FFFFFF,&H33000000,&H33000000,0,0,0,0,100,100,0,0,1,2,0,7,0,0,0,0`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...events,
    '',
  ].join('\n');
}
