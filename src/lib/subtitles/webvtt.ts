/**
 * The WebVTT the server makes of every track (server/media/subtitle-formats.ts, toWebVtt): cue
 * timings, `line:0` for lines at the top, and text with only <i>, <b>, <u>, <ruby> and <rt>.
 * Read here into cues the player draws itself (the browser's own cue rendering cannot be
 * styled, moved above the control bar, or measured for danmaku to keep clear of).
 */
export interface Cue {
  start: number;
  end: number;
  text: string;
  top: boolean;
}

const TIMING = /^\s*((?:\d+:)?\d{1,2}:\d{2}[.,]\d{3})\s+-->\s+((?:\d+:)?\d{1,2}:\d{2}[.,]\d{3})(.*)$/;

function seconds(stamp: string): number {
  const parts = stamp.replace(',', '.').split(':').map(Number);
  return parts.reduce((total, part) => total * 60 + part, 0);
}

/** The cues of a WebVTT file, in time order (blocks without a timing line, NOTE and STYLE, skipped). */
export function parseWebVtt(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const lines = block.split('\n');
    const at = lines.findIndex((line) => TIMING.test(line));
    if (at < 0) continue;
    const [, from, to, settings] = TIMING.exec(lines[at]!)!;
    const start = seconds(from!);
    const end = seconds(to!);
    const body = lines
      .slice(at + 1)
      .join('\n')
      .trim();
    if (end > start && body) cues.push({ start, end, text: body, top: /(^|\s)line:0%?(\s|$)/.test(settings ?? '') });
  }
  return cues.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** The cues shown at `time` (start inclusive, end exclusive). Cues are few enough on screen that a scan from a binary-searched start is cheap. */
export function activeCues(cues: readonly Cue[], time: number, longest: number): Cue[] {
  let lo = 0;
  let hi = cues.length;
  const from = time - longest;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cues[mid]!.start < from) lo = mid + 1;
    else hi = mid;
  }
  const shown: Cue[] = [];
  for (let i = lo; i < cues.length && cues[i]!.start <= time; i++) if (cues[i]!.end > time) shown.push(cues[i]!);
  return shown;
}

export const longestCue = (cues: readonly Cue[]) => cues.reduce((most, cue) => Math.max(most, cue.end - cue.start), 0);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', nbsp: '\u00a0', lrm: '\u200e', rlm: '\u200f' };
const KEPT = new Set(['i', 'b', 'u', 'ruby', 'rt']);

/** Cue text as DOM nodes: the kept tags as elements, everything else as text (never parsed as HTML). */
export function cueNodes(text: string, doc: Document = document): DocumentFragment {
  const root = doc.createDocumentFragment();
  const stack: Array<DocumentFragment | HTMLElement> = [root];
  for (const piece of text.split(/(<[^<>]*>)/)) {
    if (!piece) continue;
    const tag = /^<(\/?)([a-z]+)[^>]*>$/i.exec(piece);
    if (tag) {
      const name = tag[2]!.toLowerCase();
      if (!KEPT.has(name)) continue;
      if (tag[1]) {
        if (stack.length > 1 && (stack[stack.length - 1] as HTMLElement).localName === name) stack.pop();
      } else {
        const element = doc.createElement(name);
        stack[stack.length - 1]!.appendChild(element);
        stack.push(element);
      }
      continue;
    }
    const plain = piece.replace(/&(amp|lt|gt|nbsp|lrm|rlm);/g, (_, name: string) => ENTITIES[name]!);
    plain.split('\n').forEach((line, i) => {
      if (i > 0) stack[stack.length - 1]!.appendChild(doc.createElement('br'));
      if (line) stack[stack.length - 1]!.appendChild(doc.createTextNode(line));
    });
  }
  return root;
}
