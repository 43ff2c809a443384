import { useEffect, type RefObject } from 'react';
import { getHistoryAnchor, recordHistory } from '../../lib/api/calls/interaction.ts';
import type { Translate } from '../../lib/i18n/translate.ts';
import { anchorToRecord, resumePosition, HISTORY_INTERVAL_MS } from '../../lib/player/resume.ts';
import { formatClock } from '../../lib/catalogue/format.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { timeInPart, videoTimeOf, type PartSpan } from '../../lib/player/part-span.ts';
import type { MediaTarget } from '../../lib/api/contracts/common.constants.ts';

/**
 * Watch and listening history, for members, on the video and the audio player alike: playback
 * resumes where they left off (in the part they were watching; the position is kept on the
 * video's timeline, parts.ts; a track is one part), and the position is written
 * as they watch (every HISTORY_INTERVAL_MS while playing, on pause, and with a keepalive request
 * when the page goes away or is hidden: mobile browsers may discard a hidden page without any pagehide).
 * A position in another part is offered to `onOtherPart` (the player may go to that part).
 */
export function useHistoryReporting(
  mediaRef: RefObject<HTMLMediaElement | null>,
  { type, id }: MediaTarget,
  span: PartSpan,
  member: boolean,
  t: Translate,
  onOtherPart?: (anchor: number) => void,
): void {
  useEffect(() => {
    if (!member) return;
    const v = mediaRef.current!;
    let cancelled = false;
    void getHistoryAnchor(id, type)
      .then(({ anchor }) => {
        // The position is on the video's timeline: it resumes only in the part it lies in.
        const inPart = anchor === null ? null : timeInPart(anchor, span);
        if (cancelled || anchor === null) return;
        if (inPart === null) return onOtherPart?.(anchor);
        const apply = () => {
          const at = resumePosition(inPart, v.duration);
          if (at === null || v.currentTime > 1) return;
          v.currentTime = at;
          showToast({ message: t('player.resumed', { time: formatClock(at) }), severity: 'info' });
        };
        if (v.readyState >= 1) apply();
        else v.addEventListener('loadedmetadata', apply, { once: true });
      })
      .catch(() => {});
    let lastRecorded: number | null = null;
    const record = (keepalive = false) => {
      const anchor = anchorToRecord(v.currentTime, lastRecorded);
      if (anchor === null) return;
      lastRecorded = anchor;
      void recordHistory(id, videoTimeOf(anchor, span), { keepalive }, type).catch(() => {});
    };
    const timer = window.setInterval(() => !v.paused && record(), HISTORY_INTERVAL_MS);
    const onPause = () => record();
    const onHide = () => record(true);
    const onVisibility = () => document.visibilityState === 'hidden' && record(true);
    v.addEventListener('pause', onPause);
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      cancelled = true;
      window.clearInterval(timer);
      v.removeEventListener('pause', onPause);
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [member, type, id, span.offset, span.length]);
}
