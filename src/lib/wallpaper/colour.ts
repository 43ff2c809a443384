import quantize from 'quantize';

/** Palette extraction of SPEC §9: 64 colours, every 5th pixel. */
export const PALETTE_COLOURS = 64;
export const PALETTE_QUALITY = 5;
/** Text over a colour turns white below these brightness values (SPEC §9). */
export const BRIGHTNESS_THRESHOLD = { title: 200, body: 150 } as const;

export type TextKind = keyof typeof BRIGHTNESS_THRESHOLD;

export function toHex([r, g, b]: readonly number[]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

export function parseHex(hex: string): [number, number, number] | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!match) return null;
  const n = Number.parseInt(match[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Perceived brightness 0-255 (the W3C formula: 299 R + 587 G + 114 B). */
export function brightness(hex: string): number | null {
  const rgb = parseHex(hex);
  return rgb ? (rgb[0] * 299 + rgb[1] * 587 + rgb[2] * 114) / 1000 : null;
}

/** The text colour to put over a colour: white below the kind's threshold, else black; null for no colour. */
export function textColourOver(hex: string, kind: TextKind): '#ffffff' | '#000000' | null {
  const value = brightness(hex);
  if (value === null) return null;
  return value < BRIGHTNESS_THRESHOLD[kind] ? '#ffffff' : '#000000';
}

/**
 * The dominant colour of RGBA pixels: every `quality`th pixel, leaving out transparent and
 * near-white ones (as Color Thief does), quantised by median cut to `colours` colours; the
 * most populous box wins. Null when no pixel counts.
 */
export function dominantColour(
  pixels: Uint8ClampedArray | Uint8Array,
  quality = PALETTE_QUALITY,
  colours = PALETTE_COLOURS,
): string | null {
  const sample: [number, number, number][] = [];
  const step = Math.max(1, Math.trunc(quality)) * 4;
  for (let i = 0; i + 3 < pixels.length; i += step) {
    const r = pixels[i],
      g = pixels[i + 1],
      b = pixels[i + 2],
      a = pixels[i + 3];
    if (a >= 125 && !(r > 250 && g > 250 && b > 250)) sample.push([r, g, b]);
  }
  if (!sample.length) return null;
  // quantize needs two distinct colours; a flat image is its own dominant colour.
  const first = sample[0];
  if (sample.every(([r, g, b]) => r === first[0] && g === first[1] && b === first[2])) return toHex(first);
  const map = quantize(sample, colours);
  if (!map) return toHex(first);
  const boxes = map.vboxes.map((box) => ({ count: box.vbox.count(), color: box.color }));
  boxes.sort((a, b) => b.count - a.count);
  return toHex(boxes[0].color);
}
