import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MalformedSubtitle, readSubtitle, toWebVtt, vttTimestamp } from '../../server/media/subtitle-formats.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/subtitles/${name}`, import.meta.url), 'utf8');

describe('subtitle formats', () => {
  it('turns ASS events into plain WebVTT cues: karaoke and override tags gone, drawings left out, top signs on top', async () => {
    const { cues } = await readSubtitle(fixture('ep01.ja.ass'), 'ass');
    expect(cues).toEqual([
      { start: 0.5, end: 4, text: 'きらぼし\n星がきらめく &lt;夜&gt;', top: false },
      { start: 2, end: 5, text: '看板 &amp; 標識', top: true },
      { start: 6, end: 8, text: '二行目', top: false },
    ]);
    expect(toWebVtt(cues)).toBe(
      'WEBVTT\n\n00:00:00.500 --> 00:00:04.000\nきらぼし\n星がきらめく &lt;夜&gt;\n\n' +
        '00:00:02.000 --> 00:00:05.000 line:0\n看板 &amp; 標識\n\n00:00:06.000 --> 00:00:08.000\n二行目\n',
    );
  });

  it('names the fonts an ASS file’s lines are drawn in: the styles they use and their \\fn overrides, as libass looks them up', async () => {
    const styles =
      'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ' +
      'ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n' +
      'Style: Default,Noto Sans SC,72,&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,3,1,2,40,40,60,1\n' +
      'Style: Sign,@FOT-Rodin Pro DB,60,&H0000FFFF,&H000000FF,&H00000000,&H00000000,1,0,0,0,100,100,0,0,1,2,0,8,40,40,40,1\n' +
      'Style: Unused,Comic Sans MS,60,&H0000FFFF,&H000000FF,&H00000000,&H00000000,1,0,0,0,100,100,0,0,1,2,0,8,40,40,40,1\n';
    const events =
      'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n' +
      'Dialogue: 0,0:00:00.00,0:00:01.00,Default,,0,0,0,,一{\\fnLiberation Sans}二{\\fn}三\n' +
      'Dialogue: 0,0:00:01.00,0:00:02.00,Sign,,0,0,0,,看板{\\rDefault}四\n' +
      // A style the file does not define is drawn in Default.
      'Dialogue: 0,0:00:02.00,0:00:03.00,Nowhere,,0,0,0,,五\n';
    const { fonts } = await readSubtitle(
      `[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\n${styles}\n[Events]\n${events}`,
      'ass',
    );
    expect(fonts).toEqual(['fot-rodin pro db', 'liberation sans', 'noto sans sc']);
    expect((await readSubtitle(fixture('ep01.ja.ass'), 'ass')).fonts).toEqual(['noto sans cjk jp']);
    expect((await readSubtitle(fixture('ep01.en.srt'), 'srt')).fonts).toEqual([]);
  });

  it('turns SRT into WebVTT, keeping italics and dropping font tags', async () => {
    const vtt = toWebVtt((await readSubtitle(fixture('ep01.en.srt'), 'srt')).cues);
    expect(vtt).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.500\nHello <i>there</i> &amp; you\n\n00:00:03.000 --> 00:00:04.000\nSecond line\n',
    );
  });

  it('reads WebVTT back to the same cues', async () => {
    const vtt = toWebVtt((await readSubtitle(fixture('ep01.en.srt'), 'srt')).cues);
    expect(toWebVtt((await readSubtitle(vtt, 'vtt')).cues)).toBe(vtt);
  });

  it.each([
    ['ass', 'just some words'],
    ['ass', '[Script Info]\nTitle: x\n\n[Events]\nFormat: Layer, Start, End, Style, Text\n'],
    ['srt', 'not a subtitle file at all'],
    ['srt', '1\n00:00:05,000 --> 00:00:01,000\nbackwards\n'],
    ['vtt', 'no header\n\n00:01.000 --> 00:02.000\nhi'],
    ['vtt', fixture('ep01.ja.ass')],
  ] as const)('refuses a malformed %s file', async (format, text) => {
    await expect(readSubtitle(text, format)).rejects.toBeInstanceOf(MalformedSubtitle);
  });

  it('writes WebVTT timestamps past an hour', () => {
    expect(vttTimestamp(3723.0456)).toBe('01:02:03.046');
  });
});
