/**
 * The subtitle renderers, each loaded only when a track of its kind is chosen: the cue renderer
 * (a few kilobytes) for SRT and WebVTT, libass in WebAssembly (jassub, its worker, wasm and
 * fonts) for ASS. A page where no track is chosen loads neither.
 */
import { fetchAssFiles } from './ass-files.ts';
import type { RendererHost, SubtitleRenderer, TrackToDraw } from './renderer.ts';

export async function loadSubtitleRenderer(track: TrackToDraw, host: RendererHost): Promise<SubtitleRenderer> {
  if (track.format === 'ass') {
    // The script and the fonts load while the renderer's chunk does, not after it.
    const files = fetchAssFiles(track);
    try {
      const { createAssRenderer } = await import('./ass-renderer.ts');
      return createAssRenderer(track, host, files);
    } catch (error) {
      files.abort();
      throw error;
    }
  }
  const { createCueRenderer } = await import('./cue-renderer.ts');
  return createCueRenderer(track, host);
}
