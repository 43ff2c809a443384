/**
 * ASS tracks drawn by libass compiled to WebAssembly (jassub), in a worker, on a canvas over
 * the picture: styles, positioning, karaoke and signs as the file says. Everything here (the
 * library, its worker, its wasm and the fonts) is the site's own files, bundled by Vite into a
 * chunk loaded only when an ASS track is pointed at or chosen (subtitle-loader.ts); nothing
 * comes from a CDN.
 *
 * The script and the fonts are fetched on the page from that moment (ass-files.ts), while this
 * chunk loads and the worker starts its WebAssembly; once it is up they go to it, the fonts as
 * bytes in one batch (libass re-reads every font it holds at each batch, so one batch, not one per
 * font as jassub's own loading does), the script first cut to the lines of the moment
 * (ass-moment.ts), the whole of it once they are shown. Started on pointing, the frame of now is
 * drawn once unseen (below); on the choice, the first line is drawn at once, without waiting for
 * the next video frame nor for the frames jassub draws by the video's clock (ass-frame.ts).
 *
 * Fonts: Noto Sans SC (@fontsource's simplified Chinese file, which also holds Latin, kana and
 * about 7900 characters) is libass's default family, so a line whose font the file does not bring
 * (Arial, a fansub's own) falls back to it: libass without a system font provider falls back only
 * to the default family. That file names its family "Noto Sans SC Thin" (name ID 1, no
 * typographic family), and libass matches that name, not "Noto Sans SC". A track added since
 * brings its own cut of that file (`fallbackFont`: only the characters its lines use, made on the
 * server), which libass is given instead of the whole one. Jassub's own Liberation
 * Sans is not used. A track's own fonts (those attached to its part's uploaded MKV that its lines
 * name, listed as the track's `fonts`) come with the fallback: libass picks each line's family by
 * the names inside the files.
 *
 * For danmaku: which lines are shown is known from the track's WebVTT (the same events, without
 * styling); where they are is not (libass draws them), so the band of the picture a line of its
 * alignment takes (the bottom fifth, or the top fifth for top-aligned lines) is what is reported.
 */
import JASSUB from 'jassub';
import type { AssFiles } from './ass-files.ts';
import { drawMomentNow } from './ass-frame.ts';
import { scriptOfMoment } from './ass-moment.ts';
import { activeCues, longestCue, parseWebVtt, type Cue } from './webvtt.ts';
import {
  fetchText,
  pictureBox,
  sameBoxes,
  type LineBox,
  type RendererHost,
  type SubtitleRenderer,
  type TrackToDraw,
} from './renderer.ts';

/** The family name inside the bundled Noto Sans SC file (see above). */
const FALLBACK_FAMILY = 'noto sans sc thin';

/** What the worker starts on, before the track's own script has come (libass wants a script to start). */
const EMPTY_SCRIPT = '[Script Info]\nScriptType: v4.00+\n';

/** The space between the control bar and the lines above it (player.css's cues keep the same). */
const CUE_GAP_PX = 6;

/** The share of the picture's height a band of lines is taken to fill. */
const BAND_SHARE = 0.2;

/**
 * The span of the first frame's script (ass-moment.ts): the lines shown from the moment the choice
 * is drawn to a few seconds on, long enough for the whole script to be read before it ends.
 */
const MOMENT_AHEAD_SECONDS = 5;

/** An ASS track's renderer, started before it is shown (on the viewer's intent) and shown on the choice. */
export interface AssRenderer extends SubtitleRenderer {
  /** Puts the track's canvas in the host's layer and draws the lines of now there at once. */
  show(host: RendererHost): void;
}

/**
 * Starts libass on a track: the worker and its WebAssembly, the fonts, the script of the moment,
 * and one frame of it drawn on a canvas not yet in the page. Started when the viewer points at
 * the track (subtitle-loader.ts), this runs the WebAssembly's first calls (V8 compiles each
 * function of libass, FreeType and HarfBuzz on its first call, most of a second on a slow
 * machine) and fills libass's glyph cache before the click, so the frame drawn at the click is a
 * warm one. `show` puts the canvas in the page and draws the frame of now; until then nothing of
 * it is seen, its failures are not reported and danmaku are told of no line.
 */
export function createAssRenderer(track: TrackToDraw, video: HTMLVideoElement, files: AssFiles): AssRenderer {
  const aborter = new AbortController();
  const canvas = document.createElement('canvas');
  canvas.className = 'subtitle-canvas';
  canvas.dataset.subtitleCanvas = '';
  let host: RendererHost | null = null;
  let failure: unknown = null;
  let reported = false;
  /** A failure is told to the viewer once, and only once the track is shown (chosen). */
  const report = (error: unknown) => {
    if (destroyed || reported || !host) return;
    reported = true;
    host.onError(error);
  };
  let instance: JASSUB | null = null;
  let destroyed = false;
  /** The span the script libass holds covers (seconds), null once it holds the whole script. */
  let momentSpan: { from: number; to: number } | null = null;
  let whole = '';

  /** The lines of `from` on given to libass: only those of the moment when the script can be cut. */
  const setMoment = (made: JASSUB, from: number) => {
    const moment = scriptOfMoment(whole, from, from + MOMENT_AHEAD_SECONDS);
    momentSpan = moment ? { from, to: from + MOMENT_AHEAD_SECONDS } : null;
    return made.renderer.setTrack(moment ?? whole);
  };

  const started = (async () => {
    performance.mark('subtitles:worker-start');
    const made = (instance = new JASSUB({
      // The worker starts at once, on an empty script: the real one and the fonts go to it as
      // soon as both it and they are here (below).
      video,
      canvas,
      subContent: EMPTY_SCRIPT,
      ...files.worker,
      // Nothing for jassub to fetch on its own: each font it adds makes libass re-read all of them,
      // and it asked for its Liberation Sans whenever a line in that family had a glyph the family
      // lacks (kana in a Latin font), a CJK re-read in the middle of the first lines for nothing.
      fonts: [],
      availableFonts: {},
      defaultFont: FALLBACK_FAMILY,
      // Never the viewer's local fonts (a permission prompt) nor Google Fonts (another origin).
      queryFonts: false,
    }));
    // No drawing by jassub's own clock until the frame of the click's moment is back: it draws from
    // the first video frame after its worker is up (without fonts every draw has libass look for
    // each family in vain and log it), and its frames, drawn one after another while the video
    // plays, would hold back the frames asked below (ass-frame.ts). While `busy` says a draw is
    // under way, jassub only notes that a frame is waiting.
    made.busy = true;
    [whole] = await Promise.all([files.text, made.ready.then(() => performance.mark('subtitles:worker-ready'))]);
    if (destroyed) return made;
    // Parsed while the fonts may still be on their way: first only the lines of this moment,
    // the whole script once they are shown.
    const parsed = setMoment(made, video.currentTime);
    const fonts = await files.fonts;
    if (destroyed) return made;
    await Promise.all([parsed, made.renderer.addFonts(fonts)]);
    if (destroyed) return made;
    performance.mark('subtitles:fonts-added');
    if (!host) {
      // The frame of now, drawn on the canvas no one sees yet: libass's code compiled and its
      // glyphs cached for the frame the click will ask for. One draw, jassub's clock still held.
      await drawMomentNow(made, video);
      if (destroyed) return made;
      performance.mark('subtitles:warm-drawn');
    }
    return made;
  })();

  const show = async () => {
    const made = await started;
    if (destroyed) return;
    // Pointed at a while before the click (or the video moved): the lines of the new moment.
    const now = video.currentTime;
    if (momentSpan && (now < momentSpan.from || now + 1 > momentSpan.to)) await setMoment(made, now);
    if (destroyed) return;
    canvas.dataset.ready = '';
    // Drawn now, once, rather than at the next video frame (a paused video presents none) or after
    // the frames jassub's clock would draw first (ass-frame.ts).
    await drawMomentNow(made, video);
    if (destroyed) return;
    performance.mark('subtitles:draw-asked');
    // Shown once the frame of this moment is in: the canvas kept the unseen frame drawn before the
    // click (of an earlier moment), which must not be seen. One animation frame lets the worker's
    // frame reach the screen first.
    requestAnimationFrame(() => {
      if (destroyed) return;
      canvas.style.visibility = '';
      // From now on its scale above the control bar is eased (player.css).
      canvas.dataset.shown = '';
    });
    // jassub's own clock again: it draws from the next video frame on.
    made.busy = false;
    if (momentSpan) {
      momentSpan = null;
      await made.renderer.setTrack(whole);
      if (!destroyed) performance.mark('subtitles:whole-script');
    }
  };

  let cues: Cue[] = [];
  let longest = 0;
  let boxes: LineBox[] = [];
  let frame = 0;
  let scale = '';
  /**
   * The scale that keeps the picture's lines above the control bar while it shows, as the cues
   * are kept (player.css: the canvas shrinks from its top, with the cues' transition, and is whole
   * again when the bar hides). Shrunk rather than moved up, so top-aligned signs stay in view; a
   * CSS scale, so jassub's bitmap is only drawn smaller and libass needs no new size.
   */
  const fitAboveBar = (picture: ReturnType<typeof pictureBox>, layer: HTMLElement) => {
    const bar = Number.parseFloat(layer.style.getPropertyValue('--controls-height')) || 0;
    const below = layer.clientHeight - (picture.y + picture.height);
    const lift = Math.max(0, bar + CUE_GAP_PX - below);
    const next = picture.height > lift ? ((picture.height - lift) / picture.height).toFixed(4) : '1';
    if (next !== scale) canvas.style.setProperty('--ass-scale', (scale = next));
    return Number(next);
  };
  const tick = () => {
    frame = requestAnimationFrame(tick);
    const picture = pictureBox(video);
    const layer = host?.layer;
    // The control bar's share, only while it shows (the class the cues follow too).
    const s = layer && !layer.closest('.controls-hidden') ? fitAboveBar(picture, layer) : 1;
    const shown = activeCues(cues, video.currentTime, longest);
    const band = Math.round(picture.height * BAND_SHARE);
    // The canvas's box scaled from its top middle: where its bands are on the page.
    const y = (at: number) => picture.y + at * s;
    const half = (picture.width * s) / 2;
    const left = Math.floor(picture.x + picture.width / 2 - half);
    const right = Math.ceil(picture.x + picture.width / 2 + half);
    const next: LineBox[] = [];
    if (shown.some((cue) => !cue.top))
      next.push({
        top: Math.floor(y(picture.height - band)),
        bottom: Math.ceil(y(picture.height)),
        left,
        right,
      });
    if (shown.some((cue) => cue.top)) next.push({ top: Math.floor(y(0)), bottom: Math.ceil(y(band)), left, right });
    if (!sameBoxes(next, boxes)) host?.onLines((boxes = next));
  };

  started.catch((error: unknown) => {
    failure = error;
    report(error);
  });

  return {
    show(to) {
      if (host || destroyed) return;
      performance.mark('subtitles:show');
      host = to;
      canvas.style.visibility = 'hidden';
      to.layer.append(canvas);
      if (failure) report(failure);
      show().catch(report);
      // Kept above the control bar from the first frame, even before (or without) its WebVTT.
      frame = requestAnimationFrame(tick);
      void fetchText(track.vttUrl, aborter.signal).then(
        (text) => {
          cues = parseWebVtt(text);
          longest = longestCue(cues);
        },
        () => {
          /* Without its WebVTT the track still draws; danmaku just do not know when. */
        },
      );
    },
    destroy() {
      destroyed = true;
      aborter.abort();
      files.abort();
      cancelAnimationFrame(frame);
      void instance?.destroy().catch(() => {});
      canvas.remove();
      if (boxes.length) host?.onLines([]);
    },
  };
}
