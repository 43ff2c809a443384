/**
 * SRT and WebVTT tracks drawn as styled cues: the track's WebVTT is read (webvtt.ts) and the
 * cues of the video's current time are drawn as elements in the subtitle layer, every frame on
 * the video's clock (pause, seek and rate followed exactly). They sit above the control bar
 * while it shows (the player sets --subtitle-bottom), and in fullscreen with the rest of the
 * player. The boxes of the lines shown go to the host for danmaku to keep clear of.
 */
import { activeCues, cueNodes, longestCue, parseWebVtt, type Cue } from './webvtt.ts';
import {
  fetchText,
  sameBoxes,
  type LineBox,
  type RendererHost,
  type SubtitleRenderer,
  type TrackToDraw,
} from './renderer.ts';

export function createCueRenderer(track: TrackToDraw, host: RendererHost): SubtitleRenderer {
  const aborter = new AbortController();
  const bottom = document.createElement('div');
  bottom.className = 'subtitle-cues';
  const top = document.createElement('div');
  top.className = 'subtitle-cues at-top';
  host.layer.append(top, bottom);
  let cues: Cue[] = [];
  let longest = 0;
  let shown: Cue[] = [];
  let boxes: LineBox[] = [];
  let frame = 0;

  const draw = (list: Cue[]) => {
    const render = (box: HTMLElement, of: Cue[]) =>
      box.replaceChildren(
        ...of.map((cue) => {
          const line = document.createElement('div');
          line.className = 'subtitle-cue';
          const text = document.createElement('span');
          text.lang = track.language;
          text.append(cueNodes(cue.text));
          line.append(text);
          return line;
        }),
      );
    render(
      bottom,
      list.filter((cue) => !cue.top),
    );
    render(
      top,
      list.filter((cue) => cue.top),
    );
  };

  const measure = (): LineBox[] => {
    if (!shown.length) return [];
    const origin = host.layer.getBoundingClientRect();
    return [...host.layer.querySelectorAll('.subtitle-cue > span')].map((span) => {
      const r = span.getBoundingClientRect();
      return {
        top: Math.floor(r.top - origin.top),
        bottom: Math.ceil(r.bottom - origin.top),
        left: Math.floor(r.left - origin.left),
        right: Math.ceil(r.right - origin.left),
      };
    });
  };

  const tick = () => {
    frame = requestAnimationFrame(tick);
    const now = activeCues(cues, host.video.currentTime, longest);
    if (now.length !== shown.length || now.some((cue, i) => cue !== shown[i])) {
      shown = now;
      draw(now);
    }
    // Measured every frame while lines show: the control bar coming and going moves them.
    const next = measure();
    if (!sameBoxes(next, boxes)) host.onLines((boxes = next));
  };

  void fetchText(track.vttUrl, aborter.signal).then(
    (text) => {
      cues = parseWebVtt(text);
      longest = longestCue(cues);
      frame = requestAnimationFrame(tick);
    },
    (error: unknown) => {
      if (!aborter.signal.aborted) host.onError(error);
    },
  );

  return {
    destroy() {
      aborter.abort();
      cancelAnimationFrame(frame);
      top.remove();
      bottom.remove();
      if (boxes.length) host.onLines([]);
    },
  };
}
