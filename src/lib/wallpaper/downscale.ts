/** Wallpapers larger than this on their longest side are downscaled before storing. */
export const WALLPAPER_MAX_EDGE = 2560;
/** Files above this size are re-encoded even when their dimensions fit. */
export const WALLPAPER_MAX_BYTES = 3 * 1024 * 1024;

export class NotAnImageError extends Error {
  constructor() {
    super('not an image');
    this.name = 'NotAnImageError';
  }
}

/** The size to draw an image at so its longest side is at most `maxEdge`. */
export function fitWithin(
  width: number,
  height: number,
  maxEdge = WALLPAPER_MAX_EDGE,
): { width: number; height: number } {
  const scale = Math.min(1, maxEdge / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * The image to store: the file itself when small enough, otherwise a WebP of at most
 * WALLPAPER_MAX_EDGE pixels a side. A file the browser cannot decode is refused.
 */
export async function prepareWallpaper(file: Blob): Promise<Blob> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    throw new NotAnImageError();
  }
  try {
    const size = fitWithin(bitmap.width, bitmap.height);
    if (size.width === bitmap.width && file.size <= WALLPAPER_MAX_BYTES) return file;
    const canvas = new OffscreenCanvas(size.width, size.height);
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, size.width, size.height);
    return await canvas.convertToBlob({ type: 'image/webp', quality: 0.88 });
  } finally {
    bitmap.close();
  }
}
