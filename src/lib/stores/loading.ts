import { map } from 'nanostores';

/**
 * Top loading indicator of SPEC §4: start, estimated progress, finish, hide after a delay, reset.
 * `repaintMs` is SPEC §9's repaint delay (100 ms): while a navigation lasts, the bar's estimated
 * progress is recomputed and repainted that often, not on every frame (the bar's width transition
 * smooths the steps), so a slow page costs the main thread ten small updates a second.
 */
export const LOADING = {
  durationMs: 2000,
  throttleMs: 200,
  hideDelayMs: 500,
  resetDelayMs: 400,
  repaintMs: 100,
} as const;

export interface LoadingState {
  isLoading: boolean;
  progress: number;
  error: boolean;
  visible: boolean;
}
export const $loading = map<LoadingState>({ isLoading: false, progress: 0, error: false, visible: false });

let timer: ReturnType<typeof setInterval> | undefined;
let throttle: ReturnType<typeof setTimeout> | undefined;
let hide: ReturnType<typeof setTimeout> | undefined;

/** Estimated progress after `elapsed` ms: approaches but never reaches 100 within the duration. */
export function estimatedProgress(elapsed: number, duration: number = LOADING.durationMs): number {
  return Math.min(95, 100 * (2 / Math.PI) * Math.atan((elapsed / duration) * 2));
}

export function startLoading(): void {
  clearTimeout(hide);
  if ($loading.get().isLoading) return;
  $loading.set({ isLoading: true, progress: 0, error: false, visible: false });
  const started = Date.now();
  // Fast navigations never show the bar: it appears only after the throttle.
  throttle = setTimeout(() => $loading.setKey('visible', true), LOADING.throttleMs);
  timer = setInterval(() => $loading.setKey('progress', estimatedProgress(Date.now() - started)), LOADING.repaintMs);
}

export function finishLoading({ error = false } = {}): void {
  clearInterval(timer);
  clearTimeout(throttle);
  $loading.set({ ...$loading.get(), progress: 100, error, isLoading: false });
  hide = setTimeout(() => {
    $loading.setKey('visible', false);
    setTimeout(
      () => $loading.set({ isLoading: false, progress: 0, error: false, visible: false }),
      LOADING.resetDelayMs,
    );
  }, LOADING.hideDelayMs);
}

/**
 * Marks the bar's error state (SPEC §4): a navigation that ended on an error page, or an island's
 * call that the server or the network failed. Outside a navigation the bar flashes full and red.
 */
export function failLoading(): void {
  if (!$loading.get().isLoading) {
    clearTimeout(hide);
    $loading.set({ isLoading: true, progress: 100, error: true, visible: true });
  }
  finishLoading({ error: true });
  $loading.setKey('visible', true);
}
