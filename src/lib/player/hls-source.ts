/**
 * Attaches an HLS master playlist to a video element: hls.js (loaded only now, and only where
 * Media Source Extensions exist) for adaptive quality with a choosable rung, or the browser's
 * own HLS (Safari, iOS) where it has one.
 */
import { levelFor, type QualityChoice, type QualityLevel } from './quality.ts';

export type { QualityLevel } from './quality.ts';

export interface HlsSource {
  readonly kind: 'hls.js' | 'native';
  /**
   * Play was pressed before the stream was attached. Attaching loads the element anew, which
   * pauses it and drops its queued 'play' event when that press came just before (hls.js already
   * loaded, as on a second part): the press is honoured by playing again once attached.
   */
  readonly playPressed: boolean;
  levels: QualityLevel[];
  /** -1 = automatic (ABR); otherwise an index of `levels`. */
  setLevel(index: number): void;
  /** The rung playing now (-1 when unknown). */
  currentLevel(): number;
  /** Whether hls.js chooses the rung itself. */
  isAuto(): boolean;
  /** Estimated bandwidth in bit/s (hls.js only). */
  bandwidth(): number | null;
  /** Frames per second the master playlist advertises (FRAME-RATE; hls.js only), or null. */
  frameRate(): number | null;
  /**
   * Seconds between the stream's own timestamps and the element's time (hls.js's initPTS; null
   * until the first fragment is parsed, and for native HLS). hls.js derives it from the first
   * fragment it loads, so two instances started at different places can differ by a frame or so.
   */
  timestampOffset(): number | null;
  /** Starts fetching segments (from `at` seconds) if that waited for play: a seek before play. */
  load(at?: number): void;
  destroy(): void;
}

export interface AttachOptions {
  /** The remembered quality choice, applied as soon as the rungs are known. */
  choice?: QualityChoice;
  /** Where loading starts, in seconds (default: the beginning, or where the element is). */
  startPosition?: number;
  onLevels?: (levels: QualityLevel[]) => void;
  onLevelSwitched?: (index: number) => void;
  onFatal?: (detail: string) => void;
  /** False: no segment is fetched until the element plays or seeks (media-loading.ts decides). */
  loadBeforePlay?: boolean;
}

export const canUseMse = () =>
  typeof window !== 'undefined' && ('MediaSource' in window || 'ManagedMediaSource' in window);

export async function attachHls(video: HTMLMediaElement, url: string, options: AttachOptions = {}): Promise<HlsSource> {
  const nativeHls = video.canPlayType('application/vnd.apple.mpegurl') !== '';
  if (!canUseMse() && nativeHls) {
    const playPressed = !video.paused;
    video.preload = options.loadBeforePlay === false ? 'none' : 'auto';
    video.src = url;
    return {
      kind: 'native',
      playPressed,
      levels: [],
      setLevel: () => {},
      currentLevel: () => -1,
      isAuto: () => true,
      bandwidth: () => null,
      frameRate: () => null,
      timestampOffset: () => null,
      load: () => {
        video.preload = 'auto';
      },
      destroy: () => {
        video.removeAttribute('src');
        video.load();
      },
    };
  }
  // The light build: our renditions mux audio into each rung and carry no subtitles or DRM, so
  // the full build's alternate audio, subtitle and EME controllers would be 65 KB gzip of dead weight.
  const { default: Hls } = await import('hls.js/light');
  // Play pressed while hls.js was loading (the player attaches on intent): the element already
  // plays (not paused) and sends no further 'play' event, so loading starts now.
  const loadBeforePlay = (options.loadBeforePlay ?? true) || !video.paused;
  const hls = new Hls({
    capLevelToPlayerSize: false,
    startLevel: -1,
    startPosition: options.startPosition ?? -1,
    enableWorker: true,
    backBufferLength: 60,
    autoStartLoad: loadBeforePlay,
  });
  let loading = loadBeforePlay;
  const startLoading = (at?: number) => {
    if (loading) return;
    loading = true;
    video.removeEventListener('play', onPlay);
    hls.startLoad(at ?? (video.currentTime > 0 ? video.currentTime : (options.startPosition ?? -1)));
  };
  const onPlay = () => startLoading();
  if (!loadBeforePlay) video.addEventListener('play', onPlay);
  let mediaRecoveries = 0;
  let initPts: number | null = null;
  const source: HlsSource = {
    kind: 'hls.js',
    playPressed: !video.paused,
    levels: [],
    setLevel: (index) => {
      // A chosen rung applies from the next fragment (no stall); automatic hands back to ABR.
      hls.nextLevel = index;
      if (index >= 0) hls.loadLevel = index;
      else hls.currentLevel = -1;
    },
    currentLevel: () => hls.currentLevel,
    isAuto: () => hls.autoLevelEnabled,
    bandwidth: () => (Number.isFinite(hls.bandwidthEstimate) ? hls.bandwidthEstimate : null),
    frameRate: () => (hls.levels[hls.currentLevel] ?? hls.levels[0])?.frameRate || null,
    timestampOffset: () => initPts,
    load: (at) => startLoading(at),
    destroy: () => hls.destroy(),
  };
  hls.on(Hls.Events.MANIFEST_PARSED, (_event, data) => {
    source.levels = data.levels.map((l, index) => ({ index, height: l.height, bitrate: l.bitrate }));
    const start = options.choice ? levelFor(source.levels, options.choice) : -1;
    if (start >= 0) {
      hls.startLevel = start;
      hls.currentLevel = start;
    }
    options.onLevels?.(source.levels);
  });
  // Our renditions have no discontinuities: one offset (the latest, should hls.js remap) for the whole video.
  hls.on(Hls.Events.INIT_PTS_FOUND, (_event, data) => {
    initPts = data.initPTS / data.timescale;
  });
  hls.on(Hls.Events.LEVEL_SWITCHED, (_event, data) => options.onLevelSwitched?.(data.level));
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (!data.fatal) return;
    // Network hiccups are retried; a media error gets recovery attempts, as hls.js advises.
    if (data.type === Hls.ErrorTypes.NETWORK_ERROR) hls.startLoad();
    else if (data.type === Hls.ErrorTypes.MEDIA_ERROR && mediaRecoveries++ < 2) hls.recoverMediaError();
    else {
      console.error('playback failed', data);
      options.onFatal?.(data.details);
    }
  });
  hls.loadSource(url);
  hls.attachMedia(video);
  return source;
}
