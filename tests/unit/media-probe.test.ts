import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { binaryPath, probeVideo, run, streamSeconds } from '../../server/media/ffmpeg.ts';

describe('the length of an upload', () => {
  it("is read from a stream's duration, or from the DURATION tag Matroska writes per stream", () => {
    expect(streamSeconds({ duration: '2.040000' })).toBe(2.04);
    expect(streamSeconds({ tags: { DURATION: '00:01:02.500000000' } })).toBe(62.5);
    expect(streamSeconds({ duration: 'N/A', tags: { DURATION: '00:00:02.000000000' } })).toBe(2);
    expect(streamSeconds({})).toBe(null);
    expect(streamSeconds({ tags: { DURATION: 'soon' } })).toBe(null);
  });

  describe('of an MKV whose subtitles run on past its picture and sound', () => {
    let folder: string;
    beforeAll(async () => {
      folder = await mkdtemp(join(tmpdir(), 'kiraboshi-probe-'));
      await writeFile(
        join(folder, 'late.srt'),
        '1\n00:00:00,500 --> 00:00:01,500\nEarly\n\n2\n00:00:07,000 --> 00:00:08,000\nLong after the end\n',
      );
      const made = await run(binaryPath('ffmpeg'), [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'testsrc=size=320x240:rate=25:duration=2',
        '-f',
        'lavfi',
        '-i',
        'sine=duration=2',
        '-i',
        join(folder, 'late.srt'),
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-map',
        '2:s',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-c:a',
        'aac',
        '-c:s',
        'srt',
        join(folder, 'late.mkv'),
      ]);
      expect(made.code, made.stderr).toBe(0);
    });
    afterAll(() => rm(folder, { recursive: true, force: true }));

    it('is the length of what plays, not of the container (which the last subtitle stretches to 8 s)', async () => {
      const probe = await probeVideo(join(folder, 'late.mkv'));
      expect(probe.ok).toBe(true);
      if (probe.ok) expect(probe.result.durationMs).toBeGreaterThan(1900);
      if (probe.ok) expect(probe.result.durationMs).toBeLessThan(2300);
    });
  });
});
