import { atom } from 'nanostores';

export type ToastSeverity = 'success' | 'warning' | 'error' | 'info';
export interface Toast {
  id: number;
  message: string;
  severity: ToastSeverity;
  /** Milliseconds on screen before it removes itself. */
  duration: number;
  timestamp: number;
  /** 24×24 SVG path data (an entry of ICONS) drawn before the message. */
  icon?: string;
  /** A button in the toast (e.g. "Reload" when a new version is out). */
  action?: { label: string; run: () => void };
  /** A refusal that can be tried again: the toast counts these seconds down and stays until then. */
  retryAfterSeconds?: number;
}

export const TOAST_DEFAULT_DURATION_MS = 2000;
export const TOAST_ENTER_MS = 500;
export const TOAST_LEAVE_MS = 300;

export const $toasts = atom<Toast[]>([]);
let nextId = 1;

/** Shows a toast; one without a message shows the default finish text (SPEC §8). */
export function showToast(input: Partial<Omit<Toast, 'id' | 'timestamp'>>, defaultFinishText = 'OK'): Toast {
  const toast: Toast = {
    id: nextId++,
    message: input.message?.trim() ? input.message : defaultFinishText,
    severity: input.severity ?? 'info',
    duration: Math.max(input.duration ?? TOAST_DEFAULT_DURATION_MS, (input.retryAfterSeconds ?? 0) * 1000),
    timestamp: Date.now(),
    icon: input.icon,
    action: input.action,
    retryAfterSeconds: input.retryAfterSeconds,
  };
  $toasts.set([...$toasts.get(), toast]);
  // A toast that asks for something (duration Infinity) stays until answered or closed.
  if (Number.isFinite(toast.duration)) setTimeout(() => dismissToast(toast.id), toast.duration);
  return toast;
}

export function dismissToast(id: number): void {
  $toasts.set($toasts.get().filter((t) => t.id !== id));
}
