import { useCallback, useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { DanmakuOverlay, type OverlayOptions } from '../../lib/danmaku/overlay.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { $playerSettings, type PlayerSettings } from '../../lib/stores/player-settings.ts';
import type { DanmakuBlocking } from '../../lib/danmaku/filter.ts';
import { useDanmakuBlocking } from './use-danmaku-blocking.ts';
import { toastSendRefusal } from './danmaku-refusal.ts';
import type { PartSpan } from '../../lib/player/part-span.ts';

type DanmakuSendBody = Parameters<DanmakuOverlay['send']>[0];

const overlayOptions = (s: PlayerSettings, blocking: DanmakuBlocking): OverlayOptions => ({
  enabled: s.danmaku.enabled,
  opacity: s.danmaku.opacity,
  fontScale: s.danmaku.fontSizeScale,
  speed: s.danmaku.speed,
  area: s.danmaku.area,
  keepSubtitlesClear: s.danmaku.keepSubtitlesClear,
  density: s.danmaku.density,
  blocking,
});

interface Options {
  videoId: number;
  /** The part shown on the video's timeline: the overlay shows and sends that part's danmaku. */
  span: PartSpan;
  settings: PlayerSettings;
  /** A member's keyword and expression block lists apply to what is shown. */
  member: boolean;
  dispatch: Dispatch<PlayerEvent>;
  t: Translate;
}

/**
 * The danmaku over the video: one overlay per part on the canvas, reconfigured when the
 * display settings or the block lists change; the list loaded so far goes to the player state.
 * `send` puts a new comment on stage and says why when the server refuses it.
 */
export function useDanmakuOverlay(
  videoRef: RefObject<HTMLVideoElement | null>,
  canvasRef: RefObject<HTMLCanvasElement | null>,
  { videoId, span, settings, member, dispatch, t }: Options,
) {
  const blocking = useDanmakuBlocking(settings, member);
  // The lists known when a part's overlay is made (later changes reconfigure it below).
  const blockingNow = useRef(blocking);
  blockingNow.current = blocking;
  const overlay = useRef<DanmakuOverlay | null>(null);

  useEffect(() => {
    const v = videoRef.current;
    const c = canvasRef.current;
    if (!v || !c) return;
    const settingsNow = $playerSettings.get();
    const lists = blockingNow.current;
    const o = new DanmakuOverlay(
      v,
      c,
      videoId,
      overlayOptions(settingsNow, { ...settingsNow.danmaku.block, keywords: lists.keywords, regexes: lists.regexes }),
      { onList: (all) => dispatch({ type: 'danmaku', list: [...all] }) },
      span,
    );
    overlay.current = o;
    return () => {
      o.destroy();
      overlay.current = null;
    };
  }, [videoId, span.offset, span.length]);
  useEffect(() => {
    overlay.current?.configure(overlayOptions(settings, blocking));
  }, [settings.danmaku, blocking]);

  const send = useCallback(
    async (body: DanmakuSendBody) => {
      const o = overlay.current;
      if (!o) return;
      try {
        await o.send(body);
      } catch (error) {
        toastSendRefusal(error, t('player.sendFailed'));
        throw error;
      }
    },
    [t],
  );

  return { overlay, send };
}
