/**
 * The files libass needs to draw an ASS track, asked for all at once the moment the track is
 * chosen, on the page, alongside the renderer's own chunk, worker and WebAssembly. Left to
 * jassub, its worker fetches them one step after another (its WebAssembly, then the fonts, then
 * the script), which took most of a second between the choice and the first line.
 *
 * Only addresses are imported here (Vite's `?url`): this module is part of the small loader
 * chunk and brings no font, worker or WebAssembly byte to a page until fetchAssFiles runs.
 */
// The whole fallback, for tracks made before each got its own cut (`fallbackFont`, made when the
// track is added: server/media/subtitle-fonts.ts). WOFF rather than WOFF2: unpacked here natively
// (woff.ts), FreeType never has to. The track's own fonts are stored unpacked at processing time;
// older ones may still be WOFF.
import fallbackFontUrl from '@fontsource/noto-sans-sc/files/noto-sans-sc-chinese-simplified-400-normal.woff?url';
import workerUrl from './ass-worker.ts?worker&url';
import wasmUrl from 'jassub/dist/wasm/jassub-worker.wasm?url';
import modernWasmUrl from 'jassub/dist/wasm/jassub-worker-modern.wasm?url';
import { fetchText, type TrackToDraw } from './renderer.ts';
import { unpackWoff } from './woff.ts';

/** libass's worker and its WebAssembly builds, as jassub takes them. */
const ASS_WORKER = { workerUrl, wasmUrl, modernWasmUrl } as const;

/**
 * Whether this browser runs jassub's "modern" build, by the same test jassub makes (a module using
 * relaxed SIMD's i8x16.relaxed_swizzle validates), so the one build the worker will ask for is fetched.
 */
function runsModernBuild(): boolean {
  try {
    return WebAssembly.validate(
      Uint8Array.of(
        0x00,
        0x61,
        0x73,
        0x6d,
        0x01,
        0x00,
        0x00,
        0x00,
        0x01,
        0x05,
        0x01,
        0x60,
        0x00,
        0x01,
        0x7b,
        0x03,
        0x02,
        0x01,
        0x00,
        0x0a,
        0x2b,
        0x01,
        0x29,
        0x00,
        0xfd,
        0x0c,
        ...new Array<number>(16).fill(0),
        0xfd,
        0x0c,
        ...new Array<number>(16).fill(0),
        0xfd,
        0x80,
        0x02,
        0x0b,
      ),
    );
  } catch {
    return false;
  }
}

let workerWarmed = false;

/**
 * The worker's script and WebAssembly fetched on the page into the HTTP cache with the track's
 * files, alongside the renderer's chunk rather than after it: the worker, once started, finds them
 * there (both are named by their content and cached for good).
 */
function warmAssWorker(): void {
  if (workerWarmed) return;
  workerWarmed = true;
  for (const url of [workerUrl, runsModernBuild() ? modernWasmUrl : wasmUrl]) {
    fetch(url, { credentials: 'same-origin' })
      .then((response) => response.arrayBuffer())
      .catch(() => {
        workerWarmed = false;
      });
  }
}

export interface AssFiles {
  /** The addresses of libass's worker and WebAssembly (fetched already: the worker finds them in the cache). */
  worker: typeof ASS_WORKER;
  /** The script's text. */
  text: Promise<string>;
  /** The fallback font (the track's cut of it, else the whole one), then the track's own, as bytes (WOFF unpacked); a font that failed to load is left out. */
  fonts: Promise<Uint8Array[]>;
  /** Stops whatever is still loading (the track was changed or turned off). */
  abort(): void;
}

async function fetchBytes(url: string, signal: AbortSignal): Promise<Uint8Array | null> {
  try {
    const response = await fetch(url, { signal, credentials: 'same-origin' });
    if (!response.ok) return null;
    const bytes = new Uint8Array(await response.arrayBuffer());
    // A damaged WOFF goes as it is: FreeType has its own say on it.
    return await unpackWoff(bytes).catch(() => bytes);
  } catch {
    return null;
  }
}

export function fetchAssFiles(track: TrackToDraw): AssFiles {
  warmAssWorker();
  const aborter = new AbortController();
  // The track's cut of the fallback, else (none made, or it failed to load) the whole one.
  const fallback = track.fallbackFont
    ? fetchBytes(track.fallbackFont, aborter.signal).then(
        (bytes) => bytes ?? fetchBytes(fallbackFontUrl, aborter.signal),
      )
    : fetchBytes(fallbackFontUrl, aborter.signal);
  // Marks on the page's timeline (bench/subtitles.ts reads them): where the time to the first line goes.
  const fonts = Promise.all([fallback, ...(track.fonts ?? []).map((url) => fetchBytes(url, aborter.signal))]).then(
    (list) => {
      performance.mark('subtitles:fonts-fetched');
      return list.filter((bytes) => bytes !== null);
    },
  );
  const text = fetchText(track.url, aborter.signal).then((body) => {
    performance.mark('subtitles:script-fetched');
    return body;
  });
  // Settled here too: a choice undone before the renderer asked for them leaves no unhandled rejection.
  text.catch(() => {});
  return { worker: ASS_WORKER, text, fonts, abort: () => aborter.abort() };
}
