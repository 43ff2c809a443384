/// <reference lib="webworker" />
/**
 * The danmaku drawing worker: owns the player's canvas (transferControlToOffscreen) and draws
 * the stage the page sends (render-protocol.ts) with the same bitmaps as the main-thread
 * renderer (sprites.ts). The pixels of a storm (some 6 million blended a frame with 2000 on a
 * 720p stage) and the draw calls then cost the page's thread nothing: it keeps to its input,
 * the video and the engine. Frames follow the worker's own animation frames; between two of
 * the page's frames each comment moves on at its speed (StageReplica).
 */
import { StageReplica, type FromWorker, type ToWorker, type WorkerStats } from './render-protocol.ts';
import { SpritePainter } from './sprites.ts';

const scope = self as unknown as DedicatedWorkerGlobalScope;
/**
 * Time a frame may spend rendering bitmaps of comments entering (the rest wait a frame). Steady
 * playback needs a few a frame; after a seek into a storm every comment on stage needs one at
 * once (~150 µs each), and they fill in over some frames instead of freezing the stage.
 */
const SPRITE_BUDGET_MS = 8;

let painter: SpritePainter | null = null;
let canvas: OffscreenCanvas | null = null;
const stage = new StageReplica();
let scheduled = false;
const stats: WorkerStats = { frames: 0, slowFrames: 0, drawMs: 0 };
let lastFrameAt = 0;
const epochNow = () => performance.timeOrigin + performance.now();

const nextFrame: (callback: () => void) => void =
  typeof scope.requestAnimationFrame === 'function'
    ? (callback) => scope.requestAnimationFrame(callback)
    : // Without animation frames in workers, draw as soon as the page's frame arrives.
      (callback) => setTimeout(callback, 0);

function schedule() {
  if (scheduled || !painter) return;
  scheduled = true;
  nextFrame(frame);
}

function frame() {
  scheduled = false;
  if (!painter) return;
  const t0 = performance.now();
  const unfinished = painter.draw(stage.at(performance.timeOrigin + t0), SPRITE_BUDGET_MS);
  stats.frames++;
  if (lastFrameAt && t0 - lastFrameAt > 20) stats.slowFrames++;
  stats.drawMs += performance.now() - t0;
  // Keep moving what moves until the page has been silent too long; finish bitmaps left over.
  if (unfinished || stage.moving(epochNow())) {
    lastFrameAt = t0;
    schedule();
  } else lastFrameAt = 0;
}

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  switch (m.type) {
    case 'init':
      canvas = m.canvas;
      painter = new SpritePainter(canvas);
      painter.isFramed = (id) => stage.isFramed(id);
      break;
    case 'resize':
      if (!canvas || !painter) return;
      canvas.width = Math.round(m.width * m.dpr);
      canvas.height = Math.round(m.height * m.dpr);
      painter.dpr = m.dpr;
      schedule();
      break;
    case 'configure':
      if (!painter) return;
      painter.setFontScale(m.fontScale);
      painter.opacity = m.opacity;
      break;
    case 'frame':
      stage.apply(m);
      schedule();
      break;
    case 'reset':
      stage.reset();
      painter?.clear();
      schedule();
      break;
    case 'stats':
      scope.postMessage({ type: 'stats', stats } satisfies FromWorker);
      break;
  }
};
