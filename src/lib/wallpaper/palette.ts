import { WorkerPool } from './worker-pool.ts';

/** SPEC §9: at most 5 palette workers (fewer on a machine with fewer cores). */
export const MAX_PALETTE_WORKERS = 5;

let pool: WorkerPool<string | null> | null = null;

/** The dominant colour of an image, '#rrggbb', found in the worker pool; null if none counts. */
export function extractDominantColour(image: Blob): Promise<string | null> {
  pool ??= new WorkerPool<string | null>(
    () => new Worker(new URL('./palette-worker.ts', import.meta.url), { type: 'module' }),
    Math.max(1, Math.min(MAX_PALETTE_WORKERS, navigator.hardwareConcurrency || 2)),
  );
  return pool.run(image);
}
