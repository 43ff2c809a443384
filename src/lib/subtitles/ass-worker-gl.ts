/**
 * Runs in libass's worker before jassub's own code (ass-worker.ts imports it first): jassub draws
 * with WebGL when the worker can have it, else with a 2D canvas. WebGL drawn in software (SwiftShader,
 * where the GPU is blocked or absent: headless Chromium, virtual machines) took 90–420 ms of the
 * CPU per frame in a trace of the bench's page (the first frame included its shaders' compilation),
 * against the few milliseconds of the 2D canvas; so a WebGL context is asked with
 * `failIfMajorPerformanceCaveat`, which Chromium answers with none when it would be software, and
 * jassub falls back to its 2D canvas there. With a real GPU nothing changes.
 */
const getContext = OffscreenCanvas.prototype.getContext;
OffscreenCanvas.prototype.getContext = function (
  this: OffscreenCanvas,
  type: OffscreenRenderingContextId,
  options?: Record<string, unknown>,
) {
  return getContext.call(
    this,
    type,
    type === 'webgl' || type === 'webgl2' ? { ...options, failIfMajorPerformanceCaveat: true } : options,
  );
} as typeof getContext;

export {};
