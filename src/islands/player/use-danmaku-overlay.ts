import { useCallback, useEffect, useRef, type Dispatch, type RefObject } from 'react';
import { HttpError, retryAfterOf } from '../../lib/api/http.ts';
import { DanmakuOverlay, type OverlayOptions } from '../../lib/danmaku/overlay.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { $blockLists, EMPTY_BLOCK_LISTS, loadBlockLists } from '../../lib/stores/block-lists.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';
import { $playerSettings, type PlayerSettings } from '../../lib/stores/player-settings.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { PartSpan } from '../../lib/player/parts.ts';

type DanmakuSendBody = Parameters<DanmakuOverlay['send']>[0];

const overlayOptions = (s: PlayerSettings, keywords: readonly string[], regexes: readonly string[]): OverlayOptions => ({
  enabled: s.danmaku.enabled, opacity: s.danmaku.opacity, fontScale: s.danmaku.fontSizeScale, speed: s.danmaku.speed, area: s.danmaku.area,
  keepSubtitlesClear: s.danmaku.keepSubtitlesClear, density: s.danmaku.density, blocking: { ...s.danmaku.block, keywords, regexes },
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
export function useDanmakuOverlay(videoRef: RefObject<HTMLVideoElement | null>, canvasRef: RefObject<HTMLCanvasElement | null>, { videoId, span, settings, member, dispatch, t }: Options) {
  const blockLists = useHydratedStore($blockLists, EMPTY_BLOCK_LISTS);
  const overlay = useRef<DanmakuOverlay | null>(null);

  useEffect(() => {
    const v = videoRef.current;
    const c = canvasRef.current;
    if (!v || !c) return;
    const lists = $blockLists.get();
    const o = new DanmakuOverlay(v, c, videoId, overlayOptions($playerSettings.get(), lists.keywords, lists.regexes), { onList: (all) => dispatch({ type: 'danmaku', list: [...all] }) }, span);
    overlay.current = o;
    return () => {
      o.destroy();
      overlay.current = null;
    };
  }, [videoId, span.offset, span.length]);
  useEffect(() => {
    overlay.current?.configure(overlayOptions(settings, blockLists.keywords, blockLists.regexes));
  }, [settings.danmaku, blockLists]);
  useEffect(() => {
    if (member) void loadBlockLists();
  }, [member]);

  const send = useCallback(async (body: DanmakuSendBody) => {
    const o = overlay.current;
    if (!o) return;
    try {
      await o.send(body);
    } catch (error) {
      const message = error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
      showToast({
        message: message || t('player.sendFailed'), severity: error instanceof HttpError && error.status === 429 ? 'warning' : 'error',
        retryAfterSeconds: retryAfterOf(error),
      });
      throw error;
    }
  }, [t]);

  return { overlay, send };
}
