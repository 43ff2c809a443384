import { useRef, useState, type RefObject } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import type { HlsSource } from '../../lib/player/hls-source.ts';
import { downloadBlob, takeScreenshot } from '../../lib/player/screenshot.ts';
import { screenshotName } from '../../lib/player/shortcuts.ts';
import { showToast } from '../../lib/stores/toast.ts';

interface Options {
  link: string | null | undefined;
  title: string;
  videoId: number;
  t: Translate;
}

/**
 * Screenshots of the frame on screen, downloaded as '<title> (kv<id>) - <time>.png'. One at a
 * time: the top rung may take a moment, and a double click must not make two files (`busy`).
 */
export function useScreenshot(
  videoRef: RefObject<HTMLVideoElement | null>,
  source: RefObject<HlsSource | null>,
  { link, title, videoId, t }: Options,
) {
  const shooting = useRef(false);
  const [busy, setBusy] = useState(false);
  const shoot = async () => {
    if (shooting.current) return;
    shooting.current = true;
    setBusy(true);
    try {
      const shot = await takeScreenshot(videoRef.current!, { url: link ?? null, source: source.current });
      if (!shot) return;
      downloadBlob(shot.blob, screenshotName(title, videoId, shot.time));
      if (!shot.fullResolution) showToast({ message: t('player.screenshotReduced'), severity: 'warning' });
    } finally {
      shooting.current = false;
      setBusy(false);
    }
  };
  return { busy, shoot };
}
