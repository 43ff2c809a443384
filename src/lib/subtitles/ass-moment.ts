/**
 * An ASS script cut down to the lines of one moment, so libass draws the first frame after
 * reading a handful of events instead of the whole file (a 24-minute fansub has 1 500 of them,
 * a typeset one tens of thousands); the whole script follows once that frame is drawn
 * (ass-renderer.ts). Everything but the [Events] section (script info, styles, embedded fonts
 * and graphics) is kept as it is, and the kept events keep their order, which libass uses to
 * stack colliding lines, so the frame is the one the whole script gives.
 */

/** `H:MM:SS.cc` (ASS times) in seconds; NaN when it is not one. */
function assTime(text: string): number {
  const match = /^\s*(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)\s*$/.exec(text);
  return match ? Number(match[1]) * 3600 + Number(match[2]) * 60 + Number(match[3]) : Number.NaN;
}

/**
 * The script with only the Dialogue events shown at some point from `from` to `to` (seconds);
 * null when the whole script should be read instead: no [Events] section with a Format line
 * naming Start and End, a time that cannot be read, or nothing to leave out.
 */
export function scriptOfMoment(script: string, from: number, to: number): string | null {
  const lines = script.split(/\r?\n/);
  const eventsAt = lines.findIndex((line) => /^\s*\[Events\]\s*$/i.test(line));
  if (eventsAt < 0) return null;
  let end = lines.findIndex((line, i) => i > eventsAt && /^\s*\[[^\]]+\]\s*$/.test(line));
  if (end < 0) end = lines.length;
  const formatLine = lines.slice(eventsAt + 1, end).find((line) => /^\s*Format\s*:/i.test(line));
  if (!formatLine) return null;
  const fields = formatLine
    .slice(formatLine.indexOf(':') + 1)
    .split(',')
    .map((field) => field.trim().toLowerCase());
  const startField = fields.indexOf('start');
  const endField = fields.indexOf('end');
  if (startField < 0 || endField < 0) return null;
  const kept: string[] = [];
  let left = 0;
  for (const line of lines.slice(eventsAt + 1, end)) {
    const dialogue = /^\s*Dialogue\s*:/i.exec(line);
    if (!dialogue) {
      // The Format line and blank lines stay; comments and other event kinds are never drawn.
      if (/^\s*Format\s*:/i.test(line) || !line.trim()) kept.push(line);
      else left++;
      continue;
    }
    // The fields before Text hold no comma; Text, the last, may.
    const values = line.slice(dialogue[0].length).split(',', fields.length - 1);
    const start = assTime(values[startField] ?? '');
    const stop = assTime(values[endField] ?? '');
    if (Number.isNaN(start) || Number.isNaN(stop)) return null;
    if (start <= to && stop > from) kept.push(line);
    else left++;
  }
  if (!left) return null;
  return [...lines.slice(0, eventsAt + 1), ...kept, ...lines.slice(end)].join('\n');
}
