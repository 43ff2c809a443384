import { useEffect, type RefObject } from 'react';
import { startTimeFrom } from '../lib/share/share.ts';

/**
 * A shared link's moment (`?t=83`, src/lib/share/share.ts): the media starts there once its
 * length is known (before the remembered position, which then leaves it alone).
 */
export function useStartTime(mediaRef: RefObject<HTMLMediaElement | null>, enabled = true): void {
  useEffect(() => {
    const media = mediaRef.current;
    const start = enabled ? startTimeFrom(location.search) : null;
    if (!media || !start) return;
    const apply = () => {
      if (media.currentTime < 0.5)
        media.currentTime = Number.isFinite(media.duration)
          ? Math.min(start, Math.max(0, media.duration - 0.5))
          : start;
    };
    if (media.readyState >= 1) apply();
    else media.addEventListener('loadedmetadata', apply, { once: true });
    return () => media.removeEventListener('loadedmetadata', apply);
  }, [mediaRef, enabled]);
}
