import { useEffect, useState, type RefObject } from 'react';
import { streamUrl } from '../../lib/api/client.ts';
import type { Danmaku, DanmakuWatchingEvent } from '../../lib/api/contracts/interaction.ts';
import type { DanmakuOverlay } from '../../lib/danmaku/overlay.ts';

/** A stream the server refused (or a proxy answered with an error) is opened again after this long. */
const REOPEN_MS = 5_000;

/**
 * Danmaku other viewers send, while the video is open: once playback first starts, one
 * EventSource on GET video/danmaku/live feeds the overlay (which places each at its moment, or
 * flies it at once framed as new). EventSource reconnects by itself with the last id it got; a
 * stream it gave up on (an error answer) is opened again with that id. Answers how many watch.
 */
export function useLiveDanmaku(
  videoRef: RefObject<HTMLVideoElement | null>,
  overlay: RefObject<DanmakuOverlay | null>,
  videoId: number,
): number | null {
  const [watching, setWatching] = useState<number | null>(null);

  useEffect(() => {
    const video = videoRef.current;
    if (!video || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let lastEventId: number | undefined;
    let reopen = 0;
    let stopped = false;

    const open = () => {
      source = new EventSource(streamUrl('GET video/danmaku/live', { videoId, lastEventId }), {
        withCredentials: true,
      });
      source.onmessage = (event) => {
        const danmaku = JSON.parse(event.data) as Danmaku;
        lastEventId = danmaku.id;
        overlay.current?.receive(danmaku);
      };
      source.addEventListener('watching', (event) =>
        setWatching((JSON.parse((event as MessageEvent).data) as DanmakuWatchingEvent).watching),
      );
      source.onerror = () => {
        // A dropped connection is retried by EventSource itself; a refused one ends it.
        if (source?.readyState !== EventSource.CLOSED || stopped) return;
        source = null;
        reopen = window.setTimeout(open, REOPEN_MS);
      };
    };
    const start = () => {
      if (source || stopped) return;
      video.removeEventListener('playing', start);
      open();
    };
    if (!video.paused) start();
    else video.addEventListener('playing', start);
    return () => {
      stopped = true;
      video.removeEventListener('playing', start);
      window.clearTimeout(reopen);
      source?.close();
      setWatching(null);
    };
  }, [videoId]);

  return watching;
}
