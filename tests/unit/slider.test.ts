import { describe, expect, it } from 'vitest';
import { clampToStep, valueAfterKey } from '../../src/lib/shell/slider.ts';

describe('the slider of /dev/test-slider', () => {
  const volume = { min: 0, max: 100, step: 1 };
  const opacity = { min: 0, max: 1, step: 0.05 };

  it('moves one step by arrows, ten by Page Up/Down, to the ends by Home/End, and never past them', () => {
    expect(
      ['ArrowRight', 'ArrowUp', 'ArrowLeft', 'ArrowDown', 'PageUp', 'PageDown', 'Home', 'End'].map((key) =>
        valueAfterKey(50, key, volume),
      ),
    ).toEqual([51, 51, 49, 49, 60, 40, 0, 100]);
    expect(valueAfterKey(100, 'ArrowRight', volume)).toBe(100);
    expect(valueAfterKey(95, 'PageUp', volume)).toBe(100);
    expect(valueAfterKey(3, 'PageDown', volume)).toBe(0);
    expect(valueAfterKey(50, 'Enter', volume)).toBeNull();
    expect(valueAfterKey(50, 'a', volume)).toBeNull();
  });

  it('keeps decimal steps exact and snaps to the nearest step', () => {
    expect(valueAfterKey(0.2, 'ArrowUp', opacity)).toBe(0.25);
    expect(valueAfterKey(0.1, 'ArrowUp', opacity)).toBe(0.15);
    expect(clampToStep(0.3 + 0.000001, opacity)).toBe(0.3);
    expect(clampToStep(1.2, { min: 0.5, max: 2, step: 0.25 })).toBe(1.25);
    expect(clampToStep(-4, opacity)).toBe(0);
    expect(clampToStep(7, opacity)).toBe(1);
  });
});
