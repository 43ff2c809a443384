import { useEffect, type RefObject } from 'react';
import { startTimeFrom } from '../lib/share/share.ts';

/**
 * A shared link's moment (`?t=83`, src/lib/share/share.ts): the media starts there once it can
 * play (before the remembered position, which then leaves it alone). Not at `loadedmetadata`:
 * with Media Source Extensions that comes when only the init segment is appended, and Chromium
 * under load sometimes finished a seek made then at 0 (seeking 4, then seeked 0, nothing else
 * setting the time); a seek once data is buffered is the ordinary one every viewer makes.
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
    if (media.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA) apply();
    else media.addEventListener('canplay', apply, { once: true });
    return () => media.removeEventListener('canplay', apply);
  }, [mediaRef, enabled]);
}
