import { useEffect, useMemo, type Dispatch, type RefObject } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { showToast } from '../../lib/stores/toast.ts';

/**
 * The ways the video leaves the page's layout: fullscreen (of the player, not the video alone,
 * so the danmaku and the controls come along), web fullscreen (the player fills the window) and
 * picture-in-picture. The document's and the element's own reports go to the player state.
 */
export function useFullscreen(rootRef: RefObject<HTMLElement | null>, videoRef: RefObject<HTMLVideoElement | null>, webFullscreen: boolean, dispatch: Dispatch<PlayerEvent>, t: Translate) {
  useEffect(() => {
    const onChange = () => dispatch({ type: 'fullscreen', on: document.fullscreenElement === rootRef.current });
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  useEffect(() => {
    document.documentElement.toggleAttribute('data-web-fullscreen', webFullscreen);
  }, [webFullscreen]);
  useEffect(() => {
    const v = videoRef.current!;
    const onEnter = () => dispatch({ type: 'pictureInPicture', on: true });
    const onLeave = () => dispatch({ type: 'pictureInPicture', on: false });
    v.addEventListener('enterpictureinpicture', onEnter);
    v.addEventListener('leavepictureinpicture', onLeave);
    return () => {
      v.removeEventListener('enterpictureinpicture', onEnter);
      v.removeEventListener('leavepictureinpicture', onLeave);
    };
  }, []);

  return useMemo(() => ({
    toggleFullscreen: () => {
      if (document.fullscreenElement) void document.exitFullscreen();
      else void rootRef.current?.requestFullscreen?.().catch(() => {});
    },
    togglePip: async () => {
      const v = videoRef.current!;
      try {
        if (document.pictureInPictureElement) await document.exitPictureInPicture();
        else if (typeof v.requestPictureInPicture !== 'function') throw new Error('picture-in-picture unsupported');
        else await v.requestPictureInPicture();
      } catch {
        // Refused by the browser (unsupported, turned off by a policy, no video yet): say so.
        showToast({ message: t('player.pipFailed'), severity: 'warning' });
      }
    },
  }), [t]);
}
