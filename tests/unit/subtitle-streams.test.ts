/**
 * What of an upload's streams is kept (server/media/subtitle-streams.ts): fonts only by their
 * magic bytes and within the count limit, stream languages as BCP 47, labels from titles or the
 * language's own name. The file is made by ffmpeg; no server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  extractSubtitleStreams,
  fontExtension,
  streamLabel,
  streamLanguage,
} from '../../server/media/subtitle-streams.ts';
import { binaryPath, run } from '../../server/media/ffmpeg.ts';
import { STREAM_FONTS_MAX } from '../../src/lib/api/contracts/subtitle.constants.ts';

describe('subtitle streams of an upload', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kiraboshi-streams-unit-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('knows fonts by their first four bytes, whatever their names say', () => {
    const head = (bytes: number[] | string) =>
      Buffer.concat([typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes), Buffer.alloc(8)]);
    expect(
      [head([0, 1, 0, 0]), head('true'), head('OTTO'), head('ttcf'), head('wOFF'), head('wOF2')].map(fontExtension),
    ).toEqual(['ttf', 'ttf', 'otf', 'ttc', 'woff', 'woff2']);
    expect(
      [head('PK\u0003\u0004'), head('%PDF'), head([0, 1, 0, 1]), head('MZ\u0090\u0000'), Buffer.alloc(0)].map(
        fontExtension,
      ),
    ).toEqual([null, null, null, null, null]);
  });

  it('gives ISO 639-2 language tags as BCP 47 and names a track without a title by its language', () => {
    expect(
      ['jpn', 'chi', 'zho', 'eng', 'fre', 'ger', 'kor', 'zh-Hant', undefined, 'und', 'not a language'].map(
        streamLanguage,
      ),
    ).toEqual(['ja', 'zh', 'zh', 'en', 'fr', 'de', 'ko', 'zh-Hant', 'und', 'und', 'und']);
    expect(streamLabel('  Signs & Songs ', 'en', 1)).toBe('Signs & Songs');
    expect(streamLabel(undefined, 'ja', 1)).toBe('日本語');
    expect(streamLabel('', 'zh-Hant', 2)).toBe('繁體中文');
    expect(streamLabel(undefined, 'und', 3)).toBe('#3');
    expect([...streamLabel('字'.repeat(200), 'ja', 1)]).toHaveLength(80);
  });

  it(`keeps at most ${STREAM_FONTS_MAX} fonts of a file and notes the others`, async () => {
    const ass = join(dir, 'a.ass');
    await writeFile(
      ass,
      '[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nFormat: Name, Fontname, Fontsize\nStyle: Default,Arial,20\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:00.10,0:00:00.50,Default,,0,0,0,,hi\n',
    );
    const attachments: string[] = [];
    for (let i = 0; i < STREAM_FONTS_MAX + 2; i++) {
      const file = join(dir, `f${i}.ttf`);
      await writeFile(file, Buffer.concat([Buffer.from([0, 1, 0, 0]), Buffer.from(`font ${i}`)]));
      attachments.push('-attach', file, `-metadata:s:t:${i}`, 'mimetype=application/x-truetype-font');
    }
    const mkv = join(dir, 'many.mkv');
    const made = await run(binaryPath('ffmpeg'), [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=64x48:rate=5:duration=1',
      '-i',
      ass,
      '-map',
      '0',
      '-map',
      '1',
      '-c:v',
      'libx264',
      '-preset',
      'ultrafast',
      '-c:s',
      'ass',
      ...attachments,
      mkv,
    ]);
    expect(made.stderr).toBe('');
    const out = join(dir, 'out');
    const found = await extractSubtitleStreams(mkv, out);
    expect(found.tracks).toEqual([{ stream: 1, format: 'ass', language: 'und', label: '#1', file: 'streams/1.ass' }]);
    expect(found.fonts).toHaveLength(STREAM_FONTS_MAX);
    expect(found.notes.map((n) => [n.stream, n.code])).toEqual([
      [STREAM_FONTS_MAX + 1, 'FONTS_LIMIT'],
      [STREAM_FONTS_MAX + 2, 'FONTS_LIMIT'],
    ]);
    // Each kept with its brotli copy, sent to browsers instead of compressing on the first request.
    expect((await readdir(join(out, 'fonts'))).filter((name) => !name.endsWith('.br')).length).toBe(STREAM_FONTS_MAX);
    expect((await readdir(join(out, 'fonts'))).filter((name) => name.endsWith('.ttf.br')).length).toBe(
      STREAM_FONTS_MAX,
    );
  });
});
