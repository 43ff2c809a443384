import { persistentAtom } from '@nanostores/persistent';

/** The BackgroundImage setting of SPEC §3: which wallpaper (-1: none) and how it is shown. */
export interface BackgroundImageSetting {
  imageIndex: number;
  /** The wallpaper layer's opacity, 0-1. */
  opacity: number;
  /** How opaque the site's surfaces stay over the wallpaper, 0-1. */
  tint: number;
  /** Blur of the wallpaper, in CSS pixels (0-40). */
  blur: number;
}

export const DEFAULT_BACKGROUND_IMAGE: BackgroundImageSetting = { imageIndex: -1, opacity: 0.2, tint: 0.75, blur: 0 };
export const BACKGROUND_IMAGE_KEY = 'background-image';
export const BLUR_MAX = 40;

const within = (value: unknown, min: number, max: number, fallback: number) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(Math.max(value, min), max) : fallback;

/** Anything read from storage becomes a valid setting (a hand-edited or old value never breaks a page). */
export function parseBackgroundImage(text: string | null | undefined): BackgroundImageSetting {
  const d = DEFAULT_BACKGROUND_IMAGE;
  let raw: Partial<Record<keyof BackgroundImageSetting, unknown>> = {};
  try {
    raw = text ? (JSON.parse(text) ?? {}) : {};
  } catch {
    /* the defaults */
  }
  const index = raw.imageIndex;
  return {
    imageIndex: typeof index === 'number' && Number.isInteger(index) && index >= -1 ? index : d.imageIndex,
    opacity: within(raw.opacity, 0, 1, d.opacity),
    tint: within(raw.tint, 0, 1, d.tint),
    blur: within(raw.blur, 0, BLUR_MAX, d.blur),
  };
}

export const $backgroundImage = persistentAtom<BackgroundImageSetting>(BACKGROUND_IMAGE_KEY, DEFAULT_BACKGROUND_IMAGE, {
  encode: JSON.stringify,
  decode: parseBackgroundImage,
});

export function updateBackgroundImage(change: Partial<BackgroundImageSetting>): void {
  $backgroundImage.set({ ...$backgroundImage.get(), ...change });
}
