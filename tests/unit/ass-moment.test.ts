/**
 * The script libass first reads when a track is chosen (src/lib/subtitles/ass-moment.ts): only the
 * events of the moment, everything else of the file as it was, and the whole file when it cannot
 * be cut safely.
 */
import { describe, expect, it } from 'vitest';
import { scriptOfMoment } from '../../src/lib/subtitles/ass-moment.ts';

const HEAD =
  '[Script Info]\nScriptType: v4.00+\nPlayResX: 1920\n\n[V4+ Styles]\n' +
  'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n' +
  'Style: Default,Noto Sans SC,72,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,3,1,2,40,40,60,1\n\n[Events]\n' +
  'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n';
const line = (start: string, end: string, text: string, kind = 'Dialogue') =>
  `${kind}: 0,${start},${end},Default,,0,0,0,,${text}`;

describe('an ASS script cut to one moment', () => {
  it('keeps the events shown in the window, in their order, with everything around [Events] as it was', () => {
    const events = [
      line('0:00:00.00', '0:00:01.00', 'before'),
      line('0:00:09.50', '0:00:12.00', 'across the start, a comma, kept'),
      line('0:00:10.00', '0:00:11.00', '{\\pos(10,10)}in it'),
      line('0:00:10.50', '0:00:13.00', 'commented out', 'Comment'),
      line('0:00:14.99', '0:00:20.00', 'starts at the end of the window'),
      line('0:00:15.01', '0:00:16.00', 'after'),
      line('1:00:10.00', '1:00:11.00', 'an hour later'),
    ];
    const fonts = '\n[Fonts]\nfontname: a.ttf\nM)!\n';
    const cut = scriptOfMoment(`${HEAD}${events.join('\n')}\n${fonts}`, 10, 15);
    expect(cut).toBe(`${HEAD}${[events[1], events[2], events[4]].join('\n')}\n${fonts}`);
  });

  it('answers null, for the whole script, when there is nothing to leave out or the events cannot be read', () => {
    expect(scriptOfMoment(`${HEAD}${line('0:00:10.00', '0:00:11.00', 'only one')}\n`, 10, 15)).toBeNull();
    expect(scriptOfMoment('[Script Info]\nScriptType: v4.00+\n', 0, 5)).toBeNull();
    expect(
      scriptOfMoment(
        HEAD.replace(/Format: Layer.*\n$/, 'Format: Layer, Style, Text\n') + 'Dialogue: 0,Default,hi\n',
        0,
        5,
      ),
    ).toBeNull();
    expect(
      scriptOfMoment(
        `${HEAD}${line('soon', '0:00:11.00', 'unreadable time')}\n${line('0:00:00.00', '0:00:01.00', 'x')}\n`,
        10,
        15,
      ),
    ).toBeNull();
  });
});
