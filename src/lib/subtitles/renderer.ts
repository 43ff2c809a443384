/**
 * What the player asks of a subtitle renderer (the cue renderer for SRT and WebVTT, libass for
 * ASS): draw one track over the video into the subtitle layer, and say where the lines shown
 * are, so danmaku can keep clear of them. Both are loaded only once a track is chosen
 * (subtitle-loader.ts).
 */
export interface LineBox {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

export interface RendererHost {
  video: HTMLVideoElement;
  /** The layer over the video (the same box as the danmaku stage) the renderer draws in. */
  layer: HTMLElement;
  /** The boxes of the lines shown now, in CSS px from the layer's top left; [] when none. */
  onLines(boxes: readonly LineBox[]): void;
  /** The renderer could not draw the track (a network or decoding failure). */
  onError(error: unknown): void;
}

/**
 * A track to draw; an ASS track's `fonts` are those of its part's uploaded file (MKV attachments)
 * its lines name, its `fallbackFont` its own cut of the bundled fallback (null: the whole one).
 */
export interface TrackToDraw {
  format: 'ass' | 'srt' | 'vtt';
  url: string;
  vttUrl: string;
  language: string;
  fonts?: readonly string[];
  fallbackFont?: string | null;
}

export interface SubtitleRenderer {
  destroy(): void;
}

export const sameBoxes = (a: readonly LineBox[], b: readonly LineBox[]) =>
  a.length === b.length &&
  a.every(
    (box, i) =>
      box.top === b[i]!.top && box.bottom === b[i]!.bottom && box.left === b[i]!.left && box.right === b[i]!.right,
  );

/** The WebVTT of a track (every format has one): its cues' times say when a line is shown. */
export async function fetchText(url: string, signal: AbortSignal): Promise<string> {
  const response = await fetch(url, { signal, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`subtitle ${response.status}`);
  return response.text();
}

/** Where the picture is inside the element (object-fit: contain), in the element's CSS px. */
export function pictureBox(video: HTMLVideoElement): { x: number; y: number; width: number; height: number } {
  const width = video.clientWidth;
  const height = video.clientHeight;
  const ratio = video.videoWidth && video.videoHeight ? video.videoWidth / video.videoHeight : width / (height || 1);
  if (!width || !height) return { x: 0, y: 0, width, height };
  if (width / height > ratio) {
    const w = height * ratio;
    return { x: (width - w) / 2, y: 0, width: w, height };
  }
  const h = width / ratio;
  return { x: 0, y: (height - h) / 2, width, height: h };
}
