/** Starts the danmaku drawing worker (its own module so the bundler sees the worker; bench/danmaku-render.ts swaps it for a blob). */
export const startRenderWorker = () =>
  new Worker(new URL('./render-worker.ts', import.meta.url), { type: 'module', name: 'danmaku' });
