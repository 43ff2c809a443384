/**
 * The subtitle renderers, each loaded only when a track of its kind is chosen: the cue renderer
 * (a few kilobytes) for SRT and WebVTT, libass in WebAssembly (jassub, its worker, wasm and
 * fonts) for ASS, which starts when the subtitle menu is opened on a part with an ASS track, or
 * an ASS track is pointed at (decision 0036, addenda). A page where no one opens the menu loads neither.
 */
import { fetchAssFiles, type AssFiles } from './ass-files.ts';
import type { AssRenderer } from './ass-renderer.ts';
import type { RendererHost, SubtitleRenderer, TrackToDraw } from './renderer.ts';

/** How long a renderer started on intent is kept for the choice that may follow. */
const PREPARED_FOR_MS = 30_000;

interface Prepared {
  url: string;
  video: HTMLVideoElement | null;
  files: AssFiles;
  /** libass started on the track, its first frame drawn unseen (null: no video to draw over, or its chunk failed). */
  renderer: Promise<AssRenderer | null>;
  timer: ReturnType<typeof setTimeout>;
}

let prepared: Prepared | null = null;
/** The ASS track last handed to a renderer: an intent that arrives after its choice (they race) starts nothing. */
let chosenUrl: string | null = null;

/** The prepared renderer given up (another track pointed at or chosen, subtitles off, or no choice came): its worker ends. */
export function discardPrepared(): void {
  if (!prepared) return;
  const { files, renderer, timer } = prepared;
  prepared = null;
  clearTimeout(timer);
  files.abort();
  void renderer.then((made) => made?.destroy());
}

/**
 * The viewer opens the subtitle menu on a part with an ASS track (the one likely chosen is
 * given), points at (or focuses) an ASS track in it, or chooses one: its script and fonts load,
 * and libass starts on them over `video` (its worker, its WebAssembly, the frame of now drawn
 * unseen: ass-renderer.ts), in the half second or more before the click usually comes (and, on
 * the click, before the player has drawn the choice). Nothing of this happens on a page where no
 * one opens the menu.
 */
export function prepareSubtitleRenderer(track: TrackToDraw, video: HTMLVideoElement | null): void {
  if (track.format !== 'ass' || chosenUrl === track.url) return;
  if (prepared?.url === track.url && prepared.video === video) return;
  discardPrepared();
  const files = fetchAssFiles(track);
  const renderer = import('./ass-renderer.ts').then(
    ({ createAssRenderer }) =>
      // Given up while the chunk loaded: nothing started.
      video && prepared?.files === files ? createAssRenderer(track, video, files) : null,
    () => null /* the choice, if it comes, will say */,
  );
  prepared = { url: track.url, video, files, renderer, timer: setTimeout(discardPrepared, PREPARED_FOR_MS) };
}

export async function loadSubtitleRenderer(track: TrackToDraw, host: RendererHost): Promise<SubtitleRenderer> {
  if (track.format === 'ass') {
    const mine = prepared?.url === track.url ? prepared : null;
    if (mine) {
      clearTimeout(mine.timer);
      prepared = null;
    } else discardPrepared();
    chosenUrl = track.url;
    // The script and the fonts load while the renderer's chunk does, not after it.
    const files = mine?.files ?? fetchAssFiles(track);
    try {
      const { createAssRenderer } = await import('./ass-renderer.ts');
      const started = mine && (await mine.renderer);
      let renderer: AssRenderer;
      if (started && mine.video === host.video) renderer = started;
      else {
        started?.destroy();
        renderer = createAssRenderer(track, host.video, started ? fetchAssFiles(track) : files);
      }
      renderer.show(host);
      return {
        destroy() {
          if (chosenUrl === track.url) chosenUrl = null;
          renderer.destroy();
        },
      };
    } catch (error) {
      files.abort();
      throw error;
    }
  }
  chosenUrl = null;
  discardPrepared();
  const { createCueRenderer } = await import('./cue-renderer.ts');
  return createCueRenderer(track, host);
}
