import { useCallback, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { listSubtitles } from '../../lib/api/calls/subtitle.ts';
import type { Subtitle } from '../../lib/api/contracts/subtitle.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { DanmakuOverlay } from '../../lib/danmaku/overlay.ts';
import { choiceOf, initialTrack, toggledOnTrack } from '../../lib/subtitles/choice.ts';
import type { LineBox } from '../../lib/subtitles/renderer.ts';
import { $subtitleChoices, rememberSubtitleChoice } from '../../lib/stores/subtitle-choice.ts';
import { showToast } from '../../lib/stores/toast.ts';

interface Options {
  videoId: number;
  /** The part shown, counted from 0. */
  partIndex: number;
  locale: Locale;
  overlay: RefObject<DanmakuOverlay | null>;
  /** The control bar: lines stay above it while it shows. */
  controls: RefObject<HTMLElement | null>;
  t: (key: string) => string;
}

export interface SubtitleControls {
  /** The tracks of the part shown. */
  tracks: Subtitle[];
  /** The track shown, null when off. */
  current: Subtitle | null;
  choose(track: Subtitle | null): void;
  /** The viewer points at or focuses a track in the menu: an ASS track's renderer starts (loads, and draws unseen). */
  prepare(track: Subtitle): void;
  /** The subtitle menu is opened: on a part with an ASS track, the renderer of the one likely chosen starts. */
  menuOpened(): void;
  /** Off ↔ the last track on (the `c` key); false when the part has no track. */
  toggle(): boolean;
}

/**
 * The subtitle loader's chunk; for an ASS track, libass's renderer chunk is asked for at the same
 * time (the loader imports it too, and gets this same load), not once the loader has run: two
 * round trips in parallel rather than one after the other. Only for an ASS track: an SRT or
 * WebVTT choice loads nothing of libass.
 */
function loaderFor(track: Subtitle) {
  if (track.format === 'ass')
    import('../../lib/subtitles/ass-renderer.ts').catch(() => {
      /* the loader's own import of it fails too, and says so */
    });
  return import('../../lib/subtitles/subtitle-loader.ts');
}

/**
 * Subtitles in the player (issue 29, playback): the video's tracks are listed once the player
 * is in the browser; the part's track shown is the viewer's remembered choice in this interface
 * language, else the one in its language, else none; the chosen track is drawn in the subtitle
 * layer by a renderer loaded only then (src/lib/subtitles/subtitle-loader.ts), and the lines it
 * shows go to the danmaku overlay, which keeps clear of them when the viewer asked it to.
 */
export function useSubtitles(
  layerRef: RefObject<HTMLDivElement | null>,
  videoRef: RefObject<HTMLVideoElement | null>,
  { videoId, partIndex, locale, overlay, controls, t }: Options,
): SubtitleControls {
  const [all, setAll] = useState<Subtitle[]>([]);
  const tracks = useMemo(() => all.filter((track) => track.part === partIndex + 1), [all, partIndex]);
  const [current, setCurrent] = useState<Subtitle | null>(null);

  useEffect(() => {
    let live = true;
    listSubtitles(videoId).then(
      (answer) => live && setAll(answer.subtitles),
      () => {
        /* no tracks shown: the video plays as before */
      },
    );
    return () => {
      live = false;
    };
  }, [videoId]);

  // A new part (or the list arriving) starts from what is remembered for this interface language.
  useEffect(() => {
    setCurrent(initialTrack(tracks, locale, $subtitleChoices.get()[locale]?.shown));
  }, [tracks, locale]);

  /** The loader, once an ASS track's renderer was started on intent: a choice of something else ends that renderer. */
  const intentLoader = useRef<typeof import('../../lib/subtitles/subtitle-loader.ts') | null>(null);
  const prepare = useCallback((track: Subtitle) => {
    if (track.format !== 'ass' || track.id === currentRef.current?.id) return;
    loaderFor(track).then(
      (loader) => {
        intentLoader.current = loader;
        loader.prepareSubtitleRenderer(track, videoRef.current);
      },
      () => {
        /* the choice, if it comes, will say */
      },
    );
  }, []);

  // Opening the menu is the first sign a track will be chosen, most of a second before the click:
  // libass starts on the ASS track the viewer would most likely pick (the last one shown, else
  // the interface language's, else the first), unless an ASS track is already shown. Pointing
  // at another ASS track moves it there (decision 0036, addendum on the menu).
  const menuOpened = useCallback(() => {
    if (currentRef.current?.format === 'ass') return;
    const ass = tracksRef.current.filter((track) => track.format === 'ass');
    const likely = toggledOnTrack(ass, locale, $subtitleChoices.get()[locale]?.last);
    if (likely) prepare(likely);
  }, [locale, prepare]);

  const choose = useCallback(
    (track: Subtitle | null) => {
      // Its files start loading now, not once the player has drawn the choice and its effect runs.
      if (track) prepare(track);
      // Off, or an SRT/WebVTT track: a renderer started on the menu's opening ends at once.
      if (track?.format !== 'ass') intentLoader.current?.discardPrepared();
      rememberSubtitleChoice(locale, choiceOf(track));
      setCurrent(track);
    },
    [locale, prepare],
  );

  const currentRef = useRef(current);
  currentRef.current = current;
  const tracksRef = useRef(tracks);
  tracksRef.current = tracks;
  const toggle = useCallback(() => {
    if (!tracksRef.current.length) return false;
    choose(currentRef.current ? null : toggledOnTrack(tracksRef.current, locale, $subtitleChoices.get()[locale]?.last));
    return true;
  }, [choose, locale]);

  // The chosen track drawn; its lines reported to the danmaku overlay.
  useEffect(() => {
    const layer = layerRef.current;
    const video = videoRef.current;
    if (!current || !layer || !video) return;
    let renderer: { destroy(): void } | null = null;
    let cancelled = false;
    const onLines = (boxes: readonly LineBox[]) => overlay.current?.setSubtitleLines(boxes);
    layer.dataset.subtitleFormat = current.format;
    void loaderFor(current)
      .then(({ loadSubtitleRenderer }) =>
        loadSubtitleRenderer(current, {
          video,
          layer,
          onLines,
          onError: () => showToast({ message: t('player.subtitles.failed'), severity: 'error' }),
        }),
      )
      .then(
        (made) => {
          if (cancelled) made.destroy();
          else renderer = made;
        },
        () => !cancelled && showToast({ message: t('player.subtitles.failed'), severity: 'error' }),
      );
    return () => {
      cancelled = true;
      renderer?.destroy();
      delete layer.dataset.subtitleFormat;
      onLines([]);
    };
  }, [current]);

  // Lines keep above the control bar: its height, as the layer's --controls-height.
  useEffect(() => {
    const layer = layerRef.current;
    const bar = controls.current;
    if (!layer || !bar) return;
    const observer = new ResizeObserver(() => layer.style.setProperty('--controls-height', `${bar.offsetHeight}px`));
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);

  return { tracks, current, choose, prepare, menuOpened, toggle };
}
