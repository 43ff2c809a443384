import { describe, expect, it } from 'vitest';
import {
  estimateFrameRate,
  FALLBACK_FRAME_RATE,
  FrameTracker,
  frameStartAt,
  frameStepTarget,
} from '../../src/lib/player/frames.ts';
import { previewLayout } from '../../src/lib/player/storyboard.ts';
import { parseFrameRate } from '../../server/media/ffmpeg.ts';
import { LADDER, masterPlaylist } from '../../server/media/hls.ts';

/** Frames presented one after another from `start`, as requestVideoFrameCallback reports them. */
function play(tracker: FrameTracker, rate: number, count: number, start = 0, firstIndex = 0) {
  for (let i = 0; i < count; i++) tracker.observe({ mediaTime: start + i / rate, presentedFrames: firstIndex + i });
}

describe('frame rate', () => {
  it('reads ffprobe rates, refusing unknown and absurd ones', () => {
    expect(parseFrameRate('25/1')).toBe(25);
    expect(parseFrameRate('30000/1001')).toBeCloseTo(29.97, 2);
    expect(parseFrameRate('0/0')).toBeNull();
    expect(parseFrameRate('90000/1')).toBeNull();
    expect(parseFrameRate(undefined)).toBeNull();
  });

  it('is advertised in the master playlist with three decimals, and left out when unknown', () => {
    const source = { width: 1280, height: 720, hasAudio: true, frameRate: 30000 / 1001 };
    const master = masterPlaylist(LADDER.slice(0, 2), source);
    expect(master.match(/FRAME-RATE=29\.970,/g)).toHaveLength(2);
    expect(master).toContain(
      '#EXT-X-STREAM-INF:BANDWIDTH=896000,RESOLUTION=640x360,FRAME-RATE=29.970,CODECS="avc1.4d401e,mp4a.40.2"',
    );
    expect(masterPlaylist(LADDER.slice(0, 1), { ...source, frameRate: null })).not.toContain('FRAME-RATE');
  });

  it('is measured from presented frames (the median, snapped to a common rate) when not advertised', () => {
    expect(estimateFrameRate([0.04, 0.04, 0.041, 0.039, 0.04])).toBe(25);
    expect(estimateFrameRate([1001 / 24000, 1001 / 24000, 0.0418, 0.0416, 0.0417, 0.5])).toBeCloseTo(23.976, 3);
    expect(estimateFrameRate([0.04, 0.04])).toBeNull();
    expect(estimateFrameRate([1 / 17, 1 / 17, 1 / 17, 1 / 17, 1 / 17])).toBeCloseTo(17, 6);

    const tracker = new FrameTracker();
    expect(tracker.frameRate(null)).toBe(FALLBACK_FRAME_RATE);
    play(tracker, 50, 10);
    expect(tracker.frameRate(null)).toBe(50);
    expect(tracker.frameRate(24)).toBe(24);
  });

  it('ignores seeks and dropped frames when measuring', () => {
    const tracker = new FrameTracker();
    play(tracker, 25, 3);
    tracker.observe({ mediaTime: 7, presentedFrames: 3 }); // a seek
    tracker.observe({ mediaTime: 7.12, presentedFrames: 5 }); // a frame dropped: two at once
    tracker.observe({ mediaTime: 6, presentedFrames: 6 }); // a seek back
    expect(tracker.frameRate(null)).toBe(FALLBACK_FRAME_RATE);
    play(tracker, 25, 4, 6.04, 7);
    expect(tracker.frameRate(null)).toBe(25);
  });
});

describe('frame steps', () => {
  it('land in the middle of the next or previous frame', () => {
    expect(frameStepTarget(4, 25, 1)).toBeCloseTo(4.06, 9);
    expect(frameStepTarget(4, 25, -1)).toBeCloseTo(3.98, 9);
    expect(frameStepTarget(0, 25, -1)).toBe(0);
    expect(frameStartAt(4.05, 25)).toBeCloseTo(4.04, 9);
    // A time on a boundary up to float rounding belongs to the frame that starts there.
    expect(frameStartAt(0.12 - 1e-12, 25)).toBeCloseTo(0.12, 9);
  });

  it('move by exactly one frame of the advertised rate, repeated', () => {
    const tracker = new FrameTracker();
    let time = 2.013; // anywhere in a frame
    const times: number[] = [];
    for (let i = 0; i < 5; i++) times.push((time = tracker.stepTarget(time, 1, 25)));
    for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBeCloseTo(0.04, 9);
    expect(tracker.stepTarget(times.at(-1)!, -1, 25)).toBeCloseTo(times.at(-2)!, 9);
    // At 29.97 fps the frame on screen at 1 s is frame 29; the step goes to the middle of frame 30.
    expect(tracker.stepTarget(1, 1, 30000 / 1001)).toBeCloseTo((30.5 * 1001) / 30000, 9);
  });

  it('start from the frame on screen when the browser says which it is (frames need not start on the 1/rate grid)', () => {
    const tracker = new FrameTracker();
    play(tracker, 25, 6, 3.0213); // frames at 3.0213 + k/25
    const shown = 3.0213 + 5 / 25;
    expect(tracker.stepTarget(shown + 0.01, 1, 25)).toBeCloseTo(shown + 0.06, 9);
    // A frame shown long ago does not count (the position moved since).
    expect(tracker.stepTarget(shown + 1, 1, 25)).toBeCloseTo(frameStartAt(shown + 1, 25) + 0.06, 9);
  });
});

describe('storyboard preview', () => {
  const board = { url: '/s.jpg', intervalSeconds: 2, columns: 10, rows: 2, tileWidth: 160, tileHeight: 90, count: 20 };

  it('shows the tile of the hovered time at its own size on a wide bar', () => {
    const layout = previewLayout(board, 25, 40, 1000);
    expect(layout.frame).toEqual({
      tile: 12,
      width: 160,
      height: 90,
      backgroundSize: '1600px 180px',
      backgroundPosition: '-320px -90px',
    });
    expect(layout.left).toBe(625);
    expect(previewLayout(board, 40, 40, 1000).frame!.tile).toBe(19);
  });

  it('scales the tile down on a narrow bar', () => {
    const layout = previewLayout(board, 3, 40, 360);
    expect(layout.frame).toEqual({
      tile: 1,
      width: 108,
      height: 61,
      backgroundSize: '1080px 121.5px',
      backgroundPosition: '-108px 0px',
    });
  });

  it('keeps the preview inside the bar at both ends', () => {
    expect(previewLayout(board, 0, 40, 1000).left).toBe(82);
    expect(previewLayout(board, 40, 40, 1000).left).toBe(918);
    expect(previewLayout(null, 0, 40, 1000)).toEqual({ left: 30, frame: null });
    expect(previewLayout(null, 20, 40, 1000).left).toBe(500);
  });
});
