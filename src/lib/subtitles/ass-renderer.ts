/**
 * ASS tracks drawn by libass compiled to WebAssembly (jassub), in a worker, on a canvas over
 * the picture: styles, positioning, karaoke and signs as the file says. Everything here (the
 * library, its worker, its wasm and the fonts) is the site's own files, bundled by Vite into a
 * chunk loaded only when an ASS track is chosen (subtitle-loader.ts); nothing comes from a CDN.
 *
 * Fonts: Noto Sans SC (@fontsource's simplified Chinese file, which also holds Latin, kana and
 * about 7900 characters) is libass's default family, so a line whose font the file does not bring
 * (Arial, a fansub's own) falls back to it: libass without a system font provider falls back only
 * to the default family. That file names its family "Noto Sans SC Thin" (name ID 1, no
 * typographic family), and libass matches that name, not "Noto Sans SC". Jassub's Liberation Sans
 * is loaded too. Both before the first frame (a font jassub fetches on demand only shows from the
 * next video frame, and a paused video has none). A track's own fonts (those attached to its part's
 * uploaded MKV, listed as the track's `fonts`) come after them in `fonts`: libass picks each
 * line's family by the names inside the files.
 *
 * For danmaku: which lines are shown is known from the track's WebVTT (the same events, without
 * styling); where they are is not (libass draws them), so the band of the picture a line of its
 * alignment takes (the bottom fifth, or the top fifth for top-aligned lines) is what is reported.
 */
import JASSUB from 'jassub';
import workerUrl from 'jassub/dist/worker/worker.js?worker&url';
import wasmUrl from 'jassub/dist/wasm/jassub-worker.wasm?url';
import modernWasmUrl from 'jassub/dist/wasm/jassub-worker-modern.wasm?url';
import latinFontUrl from 'jassub/dist/default.woff2?url';
import fallbackFontUrl from '@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-400-normal.woff2?url';
import { activeCues, longestCue, parseWebVtt, type Cue } from './webvtt.ts';
import { fetchText, pictureBox, sameBoxes, type LineBox, type RendererHost, type SubtitleRenderer, type TrackToDraw } from './renderer.ts';

/** The family name inside the bundled Noto Sans SC file (see above). */
const FALLBACK_FAMILY = 'noto sans sc thin';

/** The share of the picture's height a band of lines is taken to fill. */
const BAND_SHARE = 0.2;

export function createAssRenderer(track: TrackToDraw, host: RendererHost, fonts: readonly string[] = []): SubtitleRenderer {
  const aborter = new AbortController();
  const canvas = document.createElement('canvas');
  canvas.className = 'subtitle-canvas';
  canvas.dataset.subtitleCanvas = '';
  host.layer.append(canvas);
  let instance: JASSUB | null = null;
  let destroyed = false;
  try {
    instance = new JASSUB({
      video: host.video, canvas, subUrl: new URL(track.url, location.href).href,
      workerUrl, wasmUrl, modernWasmUrl,
      // Loaded before the first frame: a font jassub fetched on demand would only show from the
      // next video frame on, and a paused video has none.
      fonts: [latinFontUrl, fallbackFontUrl, ...fonts].map((url) => new URL(url, location.href).href),
      defaultFont: FALLBACK_FAMILY,
      // Never the viewer's local fonts (a permission prompt) nor Google Fonts (another origin).
      queryFonts: false,
    });
    instance.ready.then(() => {
      if (destroyed) return;
      canvas.dataset.ready = '';
      // A paused video presents no new frame to draw on: the frame shown now is drawn once.
      const v = host.video;
      if (v.paused && v.readyState >= 2) void instance!.manualRender({ mediaTime: v.currentTime, width: v.videoWidth, height: v.videoHeight, expectedDisplayTime: performance.now() }, true);
    }, (error: unknown) => !destroyed && host.onError(error));
  } catch (error) {
    queueMicrotask(() => host.onError(error));
  }

  let cues: Cue[] = [];
  let longest = 0;
  let boxes: LineBox[] = [];
  let frame = 0;
  const tick = () => {
    frame = requestAnimationFrame(tick);
    const shown = activeCues(cues, host.video.currentTime, longest);
    const picture = pictureBox(host.video);
    const band = Math.round(picture.height * BAND_SHARE);
    const left = Math.floor(picture.x);
    const right = Math.ceil(picture.x + picture.width);
    const next: LineBox[] = [];
    if (shown.some((cue) => !cue.top)) next.push({ top: Math.floor(picture.y + picture.height - band), bottom: Math.ceil(picture.y + picture.height), left, right });
    if (shown.some((cue) => cue.top)) next.push({ top: Math.floor(picture.y), bottom: Math.ceil(picture.y + band), left, right });
    if (!sameBoxes(next, boxes)) host.onLines((boxes = next));
  };
  void fetchText(track.vttUrl, aborter.signal).then((text) => {
    cues = parseWebVtt(text);
    longest = longestCue(cues);
    frame = requestAnimationFrame(tick);
  }, () => { /* Without its WebVTT the track still draws; danmaku just do not know when. */ });

  return {
    destroy() {
      destroyed = true;
      aborter.abort();
      cancelAnimationFrame(frame);
      void instance?.destroy().catch(() => {});
      canvas.remove();
      if (boxes.length) host.onLines([]);
    },
  };
}
