import { describe, expect, it } from 'vitest';
import {
  actionFor,
  formatTimecode,
  screenshotName,
  sliderToVolume,
  stepRate,
  volumeToSlider,
} from '../../src/lib/player/shortcuts.ts';

const key = (k: string, ctrlKey = false) => ({ key: k, ctrlKey, metaKey: false, altKey: false });

describe('player shortcuts', () => {
  it('maps the keys of the issue to actions', () => {
    expect(
      [' ', 'Escape', 'f', 'F', 'd', 'm', 'ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'].map((k) =>
        actionFor(key(k), false),
      ),
    ).toEqual([
      'togglePlay',
      'exitFullscreen',
      'toggleFullscreen',
      'toggleFullscreen',
      'toggleDanmaku',
      'toggleMute',
      'volumeUp',
      'volumeDown',
      'seekBack',
      'seekForward',
    ]);
    expect(actionFor(key('ArrowLeft', true), false)).toBe('rateDown');
    expect(actionFor(key('ArrowRight', true), false)).toBe('rateUp');
  });
  it('stays quiet while the viewer types', () => {
    expect(actionFor(key(' '), true)).toBeNull();
    expect(actionFor(key('x'), false)).toBeNull();
  });
  it('steps the rate through the list and snaps a continuous rate to its neighbours', () => {
    expect(stepRate(1, 1)).toBe(1.25);
    expect(stepRate(1, -1)).toBe(0.75);
    expect(stepRate(1.1, -1)).toBe(1);
    expect(stepRate(4, 1)).toBe(4);
    expect(stepRate(0.25, -1)).toBe(0.25);
  });
  it('uses a perceptual volume curve', () => {
    expect(sliderToVolume(0.5)).toBeCloseTo(0.125, 5);
    expect(volumeToSlider(sliderToVolume(0.7))).toBeCloseTo(0.7, 5);
  });
  it('formats timecodes and screenshot names', () => {
    expect([formatTimecode(0), formatTimecode(75.9), formatTimecode(3725), formatTimecode(-42)]).toEqual([
      '0:00',
      '1:15',
      '1:02:05',
      '-0:42',
    ]);
    expect(screenshotName('星屑: live/2026?', 12, 75)).toBe('星屑_ live_2026_ (kv12) - 1-15.png');
  });
});
