import { describe, expect, it } from 'vitest';
import { inFlight, normalisationGain, TARGET_LUFS, timeAtX } from '../../src/lib/player/audio-logic.ts';
import { audioMasterPlaylist, createPeakMeter, parseLoudness } from '../../server/media/audio-pipeline.ts';

describe('audio player rules', () => {
  it('brings a track to the target loudness, never letting its true peak pass -1 dBTP', () => {
    expect(normalisationGain(null)).toBe(1);
    // A loud master (-8 LUFS) is turned down by 6 dB.
    expect(20 * Math.log10(normalisationGain({ integratedLufs: -8, truePeakDb: -0.2 }))).toBeCloseTo(
      TARGET_LUFS + 8,
      5,
    );
    // A quiet one (-24 LUFS, peak -3 dBTP) may rise only 2 dB, not 10.
    expect(20 * Math.log10(normalisationGain({ integratedLufs: -24, truePeakDb: -3 }))).toBeCloseTo(2, 5);
  });

  it('maps a point on the waveform to its moment, within the track', () => {
    expect(timeAtX(150, 600, 200)).toBe(50);
    expect(timeAtX(-10, 600, 200)).toBe(0);
    expect(timeAtX(700, 600, 200)).toBe(200);
  });

  it('flies the danmaku sent within the last seconds', () => {
    const all = [{ time: 1 }, { time: 4 }, { time: 9 }];
    expect(inFlight(all, 5)).toEqual([{ time: 1 }, { time: 4 }]);
    expect(inFlight(all, 0.5)).toEqual([]);
  });
});

describe('audio pipeline pieces', () => {
  it('folds 16-bit samples into peak levels, across chunk borders that split a sample', () => {
    const samples = new Int16Array(4000).map((_, i) => (i < 2000 ? 16384 : -32768));
    const bytes = Buffer.from(samples.buffer);
    const meter = createPeakMeter(4000, 4);
    meter.push(bytes.subarray(0, 1001)); // odd: half a sample waits for the next chunk
    meter.push(bytes.subarray(1001));
    expect(meter.result()).toEqual([0.5, 0.5, 1, 1]);
  });

  it('reads ebur128’s summary', () => {
    const log =
      'noise\n[Parsed_ebur128_1 @ 0x1] Summary:\n\n  Integrated loudness:\n    I:         -18.3 LUFS\n    Threshold: -28.5 LUFS\n\n  True peak:\n    Peak:       -2.1 dBFS\n';
    expect(parseLoudness(log)).toEqual({ integratedLufs: -18.3, truePeakDb: -2.1 });
    expect(parseLoudness('no summary')).toBeNull();
  });

  it('lists both AAC rungs in the master playlist', () => {
    expect(audioMasterPlaylist()).toBe(
      '#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-STREAM-INF:BANDWIDTH=72000,CODECS="mp4a.40.2"\n64k/index.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=136000,CODECS="mp4a.40.2"\n128k/index.m3u8\n',
    );
  });
});
