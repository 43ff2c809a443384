/**
 * The embed player (/embed/kv{id}, /embed/ka{id}): the page's media element with the browser's
 * own controls, and for videos the danmaku drawn over it by the site's engine. No framework: the
 * embed's JavaScript before play stays small — hls.js, the danmaku engine and its segments (or a
 * track's stream) load when the viewer means to play (as on the video page), so an embed only
 * shown costs a poster.
 *
 * Options come from the embed's address (read by the page into data attributes): `?t=` the
 * start, `?autoplay=1` playing muted at once (browsers refuse sound without a gesture), and
 * `?danmaku=0` the danmaku off at first (the button turns them on).
 */
import type { DanmakuOverlay } from '../danmaku/overlay.ts';
import { attachHls, type HlsSource } from '../player/hls-source.ts';

/** The danmaku engine, its blocking rule and the player's default settings: fetched on the first intent to play. */
const danmakuParts = () =>
  Promise.all([
    import('../danmaku/overlay.ts'),
    import('../danmaku/filter.ts'),
    import('../stores/player-settings.ts'),
  ]);

export interface EmbedOptions {
  start: number;
  autoplay: boolean;
  danmaku: boolean;
}

/** The embed's options from its data attributes (written by the page from the address). */
export function embedOptionsOf(root: HTMLElement): EmbedOptions {
  const start = Number(root.dataset.start);
  return {
    start: Number.isFinite(start) && start > 0 ? start : 0,
    autoplay: root.dataset.autoplay === '1',
    danmaku: root.dataset.danmaku !== '0',
  };
}

export function startEmbed(root: HTMLElement): void {
  const media = root.querySelector<HTMLMediaElement>('video, audio');
  const source = root.dataset.source;
  if (!media || !source) return;
  const options = embedOptionsOf(root);
  const seekToStart = () => {
    if (options.start && media.currentTime < 0.5)
      media.currentTime = Math.min(
        options.start,
        Number.isFinite(media.duration) ? Math.max(0, media.duration - 0.5) : options.start,
      );
  };
  media.addEventListener('loadedmetadata', seekToStart, { once: true });

  if (media instanceof HTMLVideoElement) {
    const canvas = root.querySelector<HTMLCanvasElement>('canvas');
    const toggle = root.querySelector<HTMLButtonElement>('[data-embed-danmaku]');
    let overlay: DanmakuOverlay | null = null;
    let loading = false;
    let playing = false;
    let enabled = options.danmaku;
    const showDanmaku = () => {
      toggle?.setAttribute('aria-pressed', String(enabled));
      if (overlay) return overlay.configure({ enabled });
      // Made on first need (the viewer means to play, danmaku on): only then do the engine and the segments load.
      if (!canvas || !enabled || !playing || loading) return;
      loading = true;
      void danmakuParts().then(([{ DanmakuOverlay }, { NO_BLOCKING }, { DEFAULT_PLAYER_SETTINGS }]) => {
        const d = DEFAULT_PLAYER_SETTINGS.danmaku;
        overlay = new DanmakuOverlay(media, canvas, Number(root.dataset.videoId), {
          enabled,
          opacity: d.opacity,
          fontScale: d.fontSizeScale,
          speed: d.speed,
          area: d.area,
          keepSubtitlesClear: d.keepSubtitlesClear,
          density: d.density,
          blocking: NO_BLOCKING,
        });
      });
    };
    toggle?.addEventListener('click', () => {
      enabled = !enabled;
      showDanmaku();
    });
    showDanmaku();

    // The stream and the danmaku attach when the viewer means to play (or at once with autoplay),
    // so a page with embeds costs no playlist, engine or danmaku until then.
    let attached: Promise<HlsSource> | null = null;
    const attach = () => {
      playing = true;
      showDanmaku();
      return (attached ??= attachHls(media, source, {
        startPosition: options.start || undefined,
        loadBeforePlay: true,
      }));
    };
    const intent = () => void attach();
    for (const event of ['pointerenter', 'touchstart', 'focusin'] as const)
      root.addEventListener(event, intent, { once: true, passive: true });
    media.addEventListener('play', () => {
      if (!attached) void attach().then(() => media.play().catch(() => {}));
    });
    if (options.autoplay) {
      media.muted = true;
      void attach().then(() => media.play().catch(() => {}));
    }
  } else {
    // A track: its progressive stream, read by the browser itself. Its length is read on the
    // viewer's first intent (pointer over, touch, focus), as the video's stream is: a browser
    // keeps a request for the metadata open for as long as the page, and a page of embeds would
    // hold one of its six connections to the site per track.
    const eager = options.autoplay || options.start;
    media.preload = eager ? 'auto' : 'none';
    media.src = source;
    const intent = () => {
      if (media.preload === 'none') media.preload = 'metadata';
    };
    if (!eager)
      for (const event of ['pointerenter', 'touchstart', 'focusin'] as const)
        root.addEventListener(event, intent, { once: true, passive: true });
    if (options.autoplay) {
      media.muted = true;
      void media.play().catch(() => {});
    }
  }
}
