/**
 * libass started on intent (src/lib/subtitles/subtitle-loader.ts): pointing at an ASS track starts
 * one renderer for it, unseen; choosing that track shows that very renderer (no second worker);
 * pointing at another track, or no choice within the time kept, ends it; SRT/VTT tracks start nothing.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RendererHost, TrackToDraw } from '../../src/lib/subtitles/renderer.ts';

interface Made {
  url: string;
  video: unknown;
  shownIn: RendererHost | null;
  destroyed: boolean;
  filesAborted: boolean;
}
const made: Made[] = [];
const fetched: string[] = [];

vi.mock('../../src/lib/subtitles/ass-files.ts', () => ({
  fetchAssFiles: (track: TrackToDraw) => {
    fetched.push(track.url);
    const files = { aborted: false, abort: () => (files.aborted = true) };
    return files;
  },
}));
vi.mock('../../src/lib/subtitles/ass-renderer.ts', () => ({
  createAssRenderer: (track: TrackToDraw, video: unknown, files: { aborted: boolean; abort(): void }) => {
    const one: Made = { url: track.url, video, shownIn: null, destroyed: false, filesAborted: false };
    made.push(one);
    return {
      show: (host: RendererHost) => (one.shownIn = host),
      destroy: () => {
        one.destroyed = true;
        files.abort();
        one.filesAborted = files.aborted;
      },
    };
  },
}));
vi.mock('../../src/lib/subtitles/cue-renderer.ts', () => ({
  createCueRenderer: () => ({ destroy() {} }),
}));

const ass = (url: string): TrackToDraw => ({ format: 'ass', url, vttUrl: `${url}.vtt`, language: 'ja' });
const video = { id: 'video' } as unknown as HTMLVideoElement;
const host = { video, layer: {} as HTMLElement, onLines() {}, onError() {} } as RendererHost;
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

let loader: typeof import('../../src/lib/subtitles/subtitle-loader.ts');
beforeEach(async () => {
  made.length = 0;
  fetched.length = 0;
  vi.resetModules();
  loader = await import('../../src/lib/subtitles/subtitle-loader.ts');
});
afterEach(() => vi.useRealTimers());

describe('libass started when an ASS track is pointed at', () => {
  it('starts one renderer unseen on pointing, and the choice shows that same one', async () => {
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    await settle();
    expect(made).toEqual([expect.objectContaining({ url: '/a.ass', video, shownIn: null, destroyed: false })]);
    expect(fetched).toEqual(['/a.ass']);
    const renderer = await loader.loadSubtitleRenderer(ass('/a.ass'), host);
    expect(made).toHaveLength(1);
    expect(made[0]!.shownIn).toBe(host);
    expect(fetched).toEqual(['/a.ass']);
    // Pointing at the track shown starts nothing more.
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    await settle();
    expect(made).toHaveLength(1);
    renderer.destroy();
    expect(made[0]!.destroyed).toBe(true);
  });

  it('ends the renderer of a track pointed at when another is pointed at or chosen', async () => {
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    await settle();
    loader.prepareSubtitleRenderer(ass('/b.ass'), video);
    await settle();
    expect(made.map((m) => [m.url, m.destroyed, m.filesAborted])).toEqual([
      ['/a.ass', true, true],
      ['/b.ass', false, false],
    ]);
    await loader.loadSubtitleRenderer(ass('/c.ass'), host);
    expect(made.map((m) => [m.url, m.destroyed, m.shownIn === host])).toEqual([
      ['/a.ass', true, false],
      ['/b.ass', true, false],
      ['/c.ass', false, true],
    ]);
  });

  it('ends it when no choice comes within the time kept', async () => {
    vi.useFakeTimers();
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    await vi.advanceTimersByTimeAsync(29_000);
    expect(made.map((m) => m.destroyed)).toEqual([false]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(made.map((m) => m.destroyed)).toEqual([true]);
    // Chosen later: started afresh.
    await loader.loadSubtitleRenderer(ass('/a.ass'), host);
    expect(made.map((m) => [m.destroyed, m.shownIn === host])).toEqual([
      [true, false],
      [false, true],
    ]);
  });

  it('ends the renderer started on the menu when an SRT or WebVTT track is chosen, or subtitles are turned off', async () => {
    loader.prepareSubtitleRenderer(ass('/a.ass'), video);
    await settle();
    await loader.loadSubtitleRenderer({ ...ass('/a.vtt'), format: 'vtt' }, host);
    expect(made.map((m) => [m.url, m.destroyed, m.filesAborted])).toEqual([['/a.ass', true, true]]);
    loader.prepareSubtitleRenderer(ass('/b.ass'), video);
    await settle();
    loader.discardPrepared();
    await settle();
    expect(made.map((m) => [m.url, m.destroyed])).toEqual([
      ['/a.ass', true],
      ['/b.ass', true],
    ]);
  });

  it('starts nothing for SRT or WebVTT tracks, and only fetches files when there is no video to draw over', async () => {
    loader.prepareSubtitleRenderer({ ...ass('/a.srt'), format: 'srt' }, video);
    loader.prepareSubtitleRenderer(ass('/a.ass'), null);
    await settle();
    expect(made).toEqual([]);
    expect(fetched).toEqual(['/a.ass']);
    await loader.loadSubtitleRenderer(ass('/a.ass'), host);
    expect(fetched).toEqual(['/a.ass']);
    expect(made.map((m) => m.shownIn === host)).toEqual([true]);
  });
});
