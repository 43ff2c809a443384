/**
 * Square crop of a picture shown in a square viewport: the picture covers the viewport at zoom 1,
 * can be zoomed and moved, and never leaves a gap. Pure arithmetic, shared by the crop view and
 * the canvas that draws the result.
 */
export interface CropState { zoom: number; dx: number; dy: number }
export const MIN_ZOOM = 1;
export const MAX_ZOOM = 4;

/** Displayed scale of the picture (pixels of viewport per pixel of picture). */
export function displayScale(width: number, height: number, viewport: number, zoom: number): number {
  return (viewport / Math.min(width, height)) * zoom;
}

/** Keeps zoom in range and the offsets within the picture's edges. */
export function clampCrop(width: number, height: number, viewport: number, state: CropState): CropState {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, state.zoom));
  const scale = displayScale(width, height, viewport, zoom);
  const maxX = (width * scale - viewport) / 2;
  const maxY = (height * scale - viewport) / 2;
  return { zoom, dx: Math.min(maxX, Math.max(-maxX, state.dx)), dy: Math.min(maxY, Math.max(-maxY, state.dy)) };
}

/** The square of the source picture that the viewport shows: x, y and side, in picture pixels. */
export function sourceSquare(width: number, height: number, viewport: number, state: CropState) {
  const { zoom, dx, dy } = clampCrop(width, height, viewport, state);
  const scale = displayScale(width, height, viewport, zoom);
  const side = viewport / scale;
  return { x: ((width * scale - viewport) / 2 - dx) / scale, y: ((height * scale - viewport) / 2 - dy) / scale, side };
}
