/// <reference lib="webworker" />
// Finds an image's dominant colour off the main thread (SPEC §7: a worker script for palette extraction).
import { dominantColour } from './colour.ts';

/** Big images are sampled at this size at most: the palette does not change, the work does. */
const SAMPLE_EDGE = 400;

self.addEventListener('message', async (event: MessageEvent<{ id: number; payload: Blob }>) => {
  const { id, payload } = event.data;
  try {
    const bitmap = await createImageBitmap(payload);
    const scale = Math.min(1, SAMPLE_EDGE / Math.max(bitmap.width, bitmap.height));
    const width = Math.max(1, Math.round(bitmap.width * scale));
    const height = Math.max(1, Math.round(bitmap.height * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(bitmap, 0, 0, width, height);
    bitmap.close();
    const result = dominantColour(context.getImageData(0, 0, width, height).data);
    self.postMessage({ id, result });
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
