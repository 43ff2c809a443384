import { useEffect, useMemo, type Dispatch, type RefObject } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import type { PlayerEvent } from '../../lib/player/player-state.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { fullscreenWay, type WebkitVideo } from '../../lib/player/device.ts';

/**
 * The ways the video leaves the page's layout: fullscreen (of the player, not the video alone,
 * so the danmaku and the controls come along; on an iPhone, which has no Fullscreen API for
 * elements, the video's own fullscreen), web fullscreen (the player fills the window) and
 * picture-in-picture. The document's and the element's own reports go to the player state.
 */
export function useFullscreen(
  rootRef: RefObject<HTMLElement | null>,
  videoRef: RefObject<HTMLVideoElement | null>,
  webFullscreen: boolean,
  dispatch: Dispatch<PlayerEvent>,
  t: Translate,
) {
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
    // iOS reports its video fullscreen on the element.
    const onVideoFullscreen = () => dispatch({ type: 'fullscreen', on: true });
    const onVideoFullscreenEnd = () => dispatch({ type: 'fullscreen', on: false });
    v.addEventListener('enterpictureinpicture', onEnter);
    v.addEventListener('leavepictureinpicture', onLeave);
    v.addEventListener('webkitbeginfullscreen', onVideoFullscreen);
    v.addEventListener('webkitendfullscreen', onVideoFullscreenEnd);
    return () => {
      v.removeEventListener('enterpictureinpicture', onEnter);
      v.removeEventListener('leavepictureinpicture', onLeave);
      v.removeEventListener('webkitbeginfullscreen', onVideoFullscreen);
      v.removeEventListener('webkitendfullscreen', onVideoFullscreenEnd);
    };
  }, []);

  return useMemo(
    () => ({
      toggleFullscreen: () => {
        if (document.fullscreenElement) {
          void document.exitFullscreen();
          return;
        }
        const video = videoRef.current as (HTMLVideoElement & WebkitVideo) | null;
        const way = fullscreenWay(rootRef.current, video);
        if (way === 'player') void rootRef.current!.requestFullscreen().catch(() => {});
        // The system player takes over (its own controls, and its exit); the danmaku stay behind.
        else if (way === 'video') video!.webkitEnterFullscreen!();
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
    }),
    [t],
  );
}
