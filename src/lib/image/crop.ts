/**
 * Crop of a picture shown in a viewport of a fixed aspect ratio (a square for avatars, 16:9 for
 * video covers): the picture covers the viewport at zoom 1, can be zoomed and moved, and never
 * leaves a gap. Pure arithmetic, shared by the crop view and the canvas that draws the result.
 * A viewport given as a number is a square of that side.
 */
export interface CropState {
  zoom: number;
  dx: number;
  dy: number;
}
export interface Viewport {
  width: number;
  height: number;
}
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

const box = (viewport: number | Viewport): Viewport =>
  typeof viewport === 'number' ? { width: viewport, height: viewport } : viewport;

/** Displayed scale of the picture (pixels of viewport per pixel of picture). */
export function displayScale(width: number, height: number, viewport: number | Viewport, zoom: number): number {
  const v = box(viewport);
  return Math.max(v.width / width, v.height / height) * zoom;
}

/** Keeps zoom in range and the offsets within the picture's edges. */
export function clampCrop(width: number, height: number, viewport: number | Viewport, state: CropState): CropState {
  const v = box(viewport);
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, state.zoom));
  const scale = displayScale(width, height, v, zoom);
  const maxX = Math.max(0, (width * scale - v.width) / 2);
  const maxY = Math.max(0, (height * scale - v.height) / 2);
  return { zoom, dx: Math.min(maxX, Math.max(-maxX, state.dx)), dy: Math.min(maxY, Math.max(-maxY, state.dy)) };
}

/** The rectangle of the source picture that the viewport shows, in picture pixels. */
export function sourceRect(width: number, height: number, viewport: number | Viewport, state: CropState) {
  const v = box(viewport);
  const { zoom, dx, dy } = clampCrop(width, height, v, state);
  const scale = displayScale(width, height, v, zoom);
  return {
    x: ((width * scale - v.width) / 2 - dx) / scale,
    y: ((height * scale - v.height) / 2 - dy) / scale,
    width: v.width / scale,
    height: v.height / scale,
  };
}

/** The square of the source picture that a square viewport shows: x, y and side, in picture pixels. */
export function sourceSquare(width: number, height: number, viewport: number, state: CropState) {
  const { x, y, width: side } = sourceRect(width, height, viewport, state);
  return { x, y, side };
}
