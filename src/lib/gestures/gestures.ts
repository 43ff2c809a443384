/**
 * Gestures of SPEC §4, framework-free: pinch, scroll and wheel each go start, change, end; scroll
 * and wheel end after a quiet debounce. Zoom from a wheel (a mouse with Ctrl, or a trackpad pinch,
 * which browsers send as Ctrl+wheel) and from WebKit's gesture events share one scale rule.
 */
export type GesturePhase = 'start' | 'change' | 'end';

/** SPEC §9: the wheel zoom constant and WebKit's pinch scale factor. */
export const WHEEL_ZOOM_CONSTANT = 7;
export const WEBKIT_PINCH_SCALE_FACTOR = 260;
/** Scroll and wheel end after this long without an event. */
export const GESTURE_DEBOUNCE_MS = 150;

export interface PinchState {
  phase: GesturePhase /** Scale since the pinch started (1 = unchanged). */;
  scale: number /** Scale change since the last event. */;
  step: number;
}
export interface ScrollState {
  phase: GesturePhase;
  x: number;
  y: number;
  dx: number;
  dy: number;
}
export interface WheelState {
  phase: GesturePhase;
  dx: number;
  dy: number /** Zoom asked for by this event (1 = none). */;
  zoom: number;
  ctrlKey: boolean;
}

/** The zoom factor of one wheel event's vertical delta (in pixels): up zooms in. */
export function wheelZoomFactor(deltaY: number): number {
  return 2 ** ((-deltaY * WHEEL_ZOOM_CONSTANT) / 1000);
}

/** WebKit's gesture scale change, in the wheel's pixel units, so both zoom the same way. */
export function webkitScaleToDelta(previousScale: number, scale: number): number {
  return -(scale - previousScale) * WEBKIT_PINCH_SCALE_FACTOR;
}

function requireHandler(name: string, handler: unknown): void {
  if (typeof handler !== 'function') throw new TypeError(`the ${name} gesture needs a handler`);
}

interface Timers {
  set: (fn: () => void, ms: number) => unknown;
  clear: (id: unknown) => void;
}
const realTimers: Timers = { set: (fn, ms) => setTimeout(fn, ms), clear: (id) => clearTimeout(id as number) };

/** start on the first event, change on each, end once `ms` pass without one. */
export function debounced<T>(
  emit: (phase: GesturePhase, value: T) => void,
  ms = GESTURE_DEBOUNCE_MS,
  timers: Timers = realTimers,
) {
  let timer: unknown = null;
  let last: T | undefined;
  return (value: T) => {
    if (timer === null) emit('start', value);
    else timers.clear(timer);
    emit('change', value);
    last = value;
    timer = timers.set(() => {
      timer = null;
      emit('end', last as T);
    }, ms);
  };
}

/** Scroll of an element (or window): start, change, end after the debounce. Returns the unbinding function. */
export function onScroll(
  target: EventTarget & { scrollLeft?: number; scrollTop?: number },
  handler: (state: ScrollState) => void,
  options: { debounceMs?: number; timers?: Timers } = {},
): () => void {
  requireHandler('scroll', handler);
  let x = 0,
    y = 0;
  const position = () =>
    'scrollY' in target
      ? { x: (target as Window).scrollX, y: (target as Window).scrollY }
      : { x: target.scrollLeft ?? 0, y: target.scrollTop ?? 0 };
  ({ x, y } = position());
  const emit = debounced<ScrollState>(
    (phase, state) => handler({ ...state, phase }),
    options.debounceMs,
    options.timers,
  );
  const listener = () => {
    const now = position();
    const state = { phase: 'change' as GesturePhase, x: now.x, y: now.y, dx: now.x - x, dy: now.y - y };
    x = now.x;
    y = now.y;
    emit(state);
  };
  target.addEventListener('scroll', listener, { passive: true });
  return () => target.removeEventListener('scroll', listener);
}

/**
 * Wheel: start, change, end after the debounce. With Ctrl (or a trackpad pinch) the browser's
 * own page zoom is held back; with `captureZoom` every wheel over the target is the target's
 * zoom and the page does not scroll.
 */
export function onWheel(
  target: EventTarget,
  handler: (state: WheelState) => void,
  options: { debounceMs?: number; timers?: Timers; captureZoom?: boolean } = {},
): () => void {
  requireHandler('wheel', handler);
  const emit = debounced<WheelState>(
    (phase, state) => handler({ ...state, phase }),
    options.debounceMs,
    options.timers,
  );
  const listener = (event: Event) => {
    const wheel = event as WheelEvent;
    if (wheel.ctrlKey || options.captureZoom) event.preventDefault();
    const pixels = wheel.deltaMode === 1 ? 16 : wheel.deltaMode === 2 ? 400 : 1; // lines, pages
    const dy = wheel.deltaY * pixels;
    emit({ phase: 'change', dx: wheel.deltaX * pixels, dy, zoom: wheelZoomFactor(dy), ctrlKey: wheel.ctrlKey });
  };
  target.addEventListener('wheel', listener, { passive: false });
  return () => target.removeEventListener('wheel', listener);
}

/**
 * Pinch with two fingers (pointer events) or WebKit's gesture events: start, change (with the
 * scale since the start), end when a finger lifts.
 */
export function onPinch(target: EventTarget, handler: (state: PinchState) => void): () => void {
  requireHandler('pinch', handler);
  const pointers = new Map<number, { x: number; y: number }>();
  let startDistance = 0;
  let scale = 1;
  const distance = () => {
    const [a, b] = [...pointers.values()];
    return Math.hypot(a.x - b.x, a.y - b.y);
  };
  const down = (event: Event) => {
    const e = event as PointerEvent;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size === 2) {
      startDistance = distance() || 1;
      scale = 1;
      handler({ phase: 'start', scale: 1, step: 1 });
    }
  };
  const move = (event: Event) => {
    const e = event as PointerEvent;
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pointers.size !== 2) return;
    const next = distance() / startDistance;
    const step = next / scale;
    scale = next;
    handler({ phase: 'change', scale, step });
  };
  const up = (event: Event) => {
    const e = event as PointerEvent;
    if (!pointers.delete(e.pointerId)) return;
    if (pointers.size === 1) handler({ phase: 'end', scale, step: 1 });
  };
  // Safari: gesture events carry the scale; converted through the wheel's zoom rule.
  let webkitScale = 1;
  const gestureStart = (event: Event) => {
    event.preventDefault();
    webkitScale = 1;
    scale = 1;
    handler({ phase: 'start', scale: 1, step: 1 });
  };
  const gestureChange = (event: Event) => {
    event.preventDefault();
    const next = (event as Event & { scale: number }).scale;
    const step = wheelZoomFactor(webkitScaleToDelta(webkitScale, next));
    webkitScale = next;
    scale *= step;
    handler({ phase: 'change', scale, step });
  };
  const gestureEnd = (event: Event) => {
    event.preventDefault();
    handler({ phase: 'end', scale, step: 1 });
  };
  const bindings: Array<[string, (event: Event) => void]> = [
    ['pointerdown', down],
    ['pointermove', move],
    ['pointerup', up],
    ['pointercancel', up],
    ['gesturestart', gestureStart],
    ['gesturechange', gestureChange],
    ['gestureend', gestureEnd],
  ];
  for (const [type, listener] of bindings) target.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of bindings) target.removeEventListener(type, listener);
  };
}
