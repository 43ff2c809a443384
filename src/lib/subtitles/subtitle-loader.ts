/**
 * The subtitle renderers, each loaded only when a track of its kind is chosen: the cue renderer
 * (a few kilobytes) for SRT and WebVTT, libass in WebAssembly (jassub, its worker, wasm and
 * fonts) for ASS. A page where no track is chosen loads neither.
 */
import { fetchAssFiles, type AssFiles } from './ass-files.ts';
import type { RendererHost, SubtitleRenderer, TrackToDraw } from './renderer.ts';

/** How long files fetched on intent are kept for the choice that may follow. */
const PREPARED_FOR_MS = 30_000;

let prepared: { url: string; files: AssFiles; timer: ReturnType<typeof setTimeout> } | null = null;
/** The ASS track last handed to a renderer: an intent that arrives after its choice (they race) fetches nothing. */
let chosenUrl: string | null = null;

function dropPrepared() {
  if (!prepared) return;
  clearTimeout(prepared.timer);
  prepared = null;
}

/**
 * The viewer points at (or focuses) an ASS track in the subtitle menu, or chooses it: its script
 * and fonts, the renderer's chunk, worker and WebAssembly start loading, a few hundred
 * milliseconds before the click usually comes (and, on the click, before the player has drawn
 * the choice). Nothing of this happens on a page where no one goes near a track.
 */
export function prepareSubtitleRenderer(track: TrackToDraw): void {
  if (track.format !== 'ass' || prepared?.url === track.url || chosenUrl === track.url) return;
  if (prepared) prepared.files.abort();
  dropPrepared();
  const files = fetchAssFiles(track);
  prepared = {
    url: track.url,
    files,
    timer: setTimeout(() => {
      files.abort();
      dropPrepared();
    }, PREPARED_FOR_MS),
  };
  import('./ass-renderer.ts').catch(() => {
    /* the choice, if it comes, will say */
  });
}

export async function loadSubtitleRenderer(track: TrackToDraw, host: RendererHost): Promise<SubtitleRenderer> {
  if (track.format === 'ass') {
    // The script and the fonts load while the renderer's chunk does, not after it.
    if (prepared && prepared.url !== track.url) prepared.files.abort();
    const files = prepared?.url === track.url ? prepared.files : fetchAssFiles(track);
    dropPrepared();
    chosenUrl = track.url;
    try {
      const { createAssRenderer } = await import('./ass-renderer.ts');
      return createAssRenderer(track, host, files);
    } catch (error) {
      files.abort();
      throw error;
    }
  }
  chosenUrl = null;
  const { createCueRenderer } = await import('./cue-renderer.ts');
  return createCueRenderer(track, host);
}
