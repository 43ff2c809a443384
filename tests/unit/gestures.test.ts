import { describe, expect, it, vi } from 'vitest';
import {
  GESTURE_DEBOUNCE_MS,
  WEBKIT_PINCH_SCALE_FACTOR,
  WHEEL_ZOOM_CONSTANT,
  debounced,
  onPinch,
  onScroll,
  onWheel,
  webkitScaleToDelta,
  wheelZoomFactor,
} from '../../src/lib/gestures/gestures.ts';

const event = <T extends object>(type: string, fields: T) =>
  Object.assign(new Event(type, { cancelable: true }), fields);

describe('gestures (SPEC §4)', () => {
  it('needs a handler, like the directives that throw without one (SPEC §5)', () => {
    const target = new EventTarget();
    expect(() => onPinch(target, undefined as never)).toThrow(TypeError);
    expect(() => onWheel(target, null as never)).toThrow(TypeError);
    expect(() => onScroll(target, 'x' as never)).toThrow(TypeError);
  });

  it('wheel: start, change per event, end once the debounce passes quietly', () => {
    vi.useFakeTimers();
    const phases: string[] = [];
    const target = new EventTarget();
    const off = onWheel(target, (s) => phases.push(s.phase));
    target.dispatchEvent(event('wheel', { deltaX: 0, deltaY: 10, deltaMode: 0, ctrlKey: false }));
    vi.advanceTimersByTime(GESTURE_DEBOUNCE_MS - 1);
    target.dispatchEvent(event('wheel', { deltaX: 0, deltaY: 10, deltaMode: 0, ctrlKey: false }));
    vi.advanceTimersByTime(GESTURE_DEBOUNCE_MS - 1);
    expect(phases).toEqual(['start', 'change', 'change']);
    vi.advanceTimersByTime(1);
    expect(phases).toEqual(['start', 'change', 'change', 'end']);
    off();
    target.dispatchEvent(event('wheel', { deltaX: 0, deltaY: 10, deltaMode: 0, ctrlKey: false }));
    expect(phases).toHaveLength(4);
    vi.useRealTimers();
  });

  it('wheel with Ctrl asks for a zoom (up zooms in) and keeps the page from zooming; lines count as 16 px', () => {
    vi.useFakeTimers();
    const states: Array<{ zoom: number; dy: number }> = [];
    const target = new EventTarget();
    onWheel(target, (s) => states.push(s));
    const pinchOut = event('wheel', { deltaX: 0, deltaY: -5, deltaMode: 0, ctrlKey: true });
    target.dispatchEvent(pinchOut);
    expect(pinchOut.defaultPrevented).toBe(true);
    expect(states[1].zoom).toBeGreaterThan(1);
    const plain = event('wheel', { deltaX: 0, deltaY: 3, deltaMode: 1, ctrlKey: false });
    target.dispatchEvent(plain);
    expect(plain.defaultPrevented).toBe(false);
    expect(states[2].dy).toBe(48);
    vi.useRealTimers();
  });

  it('zoom rule: the constants of SPEC §9, symmetric in and out, WebKit scale changes through the same rule', () => {
    expect(WHEEL_ZOOM_CONSTANT).toBe(7);
    expect(WEBKIT_PINCH_SCALE_FACTOR).toBe(260);
    expect(wheelZoomFactor(0)).toBe(1);
    expect(wheelZoomFactor(100) * wheelZoomFactor(-100)).toBeCloseTo(1, 12);
    expect(wheelZoomFactor(-100)).toBeCloseTo(2 ** 0.7, 12);
    expect(webkitScaleToDelta(1, 1.1)).toBeCloseTo(-26, 9);
    expect(wheelZoomFactor(webkitScaleToDelta(1, 1.1))).toBeGreaterThan(1);
  });

  it('scroll: start, change with the distance moved, end after the debounce', () => {
    const timers: Array<() => void> = [];
    const target = Object.assign(new EventTarget(), { scrollLeft: 0, scrollTop: 0 });
    const states: Array<{ phase: string; dy: number; y: number }> = [];
    onScroll(target, (s) => states.push(s), { timers: { set: (fn) => timers.push(fn), clear: () => timers.pop() } });
    target.scrollTop = 40;
    target.dispatchEvent(new Event('scroll'));
    target.scrollTop = 100;
    target.dispatchEvent(new Event('scroll'));
    expect(states.map((s) => [s.phase, s.dy, s.y])).toEqual([
      ['start', 40, 40],
      ['change', 40, 40],
      ['change', 60, 100],
    ]);
    timers.pop()!();
    expect(states.at(-1)).toMatchObject({ phase: 'end', y: 100 });
  });

  it('pinch with two pointers: start when the second lands, the scale follows their distance, end when one lifts', () => {
    const target = new EventTarget();
    const states: Array<{ phase: string; scale: number }> = [];
    onPinch(target, (s) => states.push(s));
    target.dispatchEvent(event('pointerdown', { pointerId: 1, clientX: 100, clientY: 100 }));
    expect(states).toEqual([]); // one finger is a drag, not a pinch
    target.dispatchEvent(event('pointerdown', { pointerId: 2, clientX: 200, clientY: 100 }));
    target.dispatchEvent(event('pointermove', { pointerId: 2, clientX: 300, clientY: 100 }));
    target.dispatchEvent(event('pointermove', { pointerId: 1, clientX: 150, clientY: 100 }));
    target.dispatchEvent(event('pointerup', { pointerId: 2 }));
    expect(states.map((s) => [s.phase, s.scale])).toEqual([
      ['start', 1],
      ['change', 2],
      ['change', 1.5],
      ['end', 1.5],
    ]);
  });

  it('pinch with WebKit gesture events', () => {
    const target = new EventTarget();
    const states: Array<{ phase: string; scale: number }> = [];
    onPinch(target, (s) => states.push(s));
    target.dispatchEvent(event('gesturestart', { scale: 1 }));
    target.dispatchEvent(event('gesturechange', { scale: 1.2 }));
    target.dispatchEvent(event('gestureend', { scale: 1.2 }));
    expect(states.map((s) => s.phase)).toEqual(['start', 'change', 'end']);
    expect(states[1].scale).toBeGreaterThan(1);
  });

  it('debounced() reports the last value at the end', () => {
    const seen: Array<[string, number]> = [];
    let fire = () => {};
    const push = debounced<number>((phase, value) => seen.push([phase, value]), 10, {
      set: (fn) => (fire = fn),
      clear: () => undefined,
    });
    push(1);
    push(2);
    fire();
    expect(seen).toEqual([
      ['start', 1],
      ['change', 1],
      ['change', 2],
      ['end', 2],
    ]);
  });
});
