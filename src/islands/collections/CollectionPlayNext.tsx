import { useEffect, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { isDataSaverOn } from '../../lib/stores/app-settings.ts';

/** The viewer's choice, kept in this browser: go on to the collection's next video when one ends. */
const AUTOPLAY_NEXT_KEY = 'kiraboshi:collection-autoplay-next';
/** Set when this page was reached by auto-play: the next video starts by itself (when the browser lets it). */
const ARRIVED_BY_AUTOPLAY_KEY = 'kiraboshi:collection-autoplayed';

function readChoice(): boolean {
  try {
    return localStorage.getItem(AUTOPLAY_NEXT_KEY) === '1';
  } catch {
    return false;
  }
}

/**
 * On a video page opened from a collection: the "auto-play next" switch. With it on, the player's
 * `ended` (of the last part) opens the collection's next video, keeping the collection in the
 * address, and that video starts playing when it has loaded.
 */
export default function CollectionPlayNext({
  locale,
  messages,
  nextHref,
}: {
  locale: Locale;
  messages: Messages;
  nextHref: string | null;
}) {
  const t = useIslandTranslation(locale, messages);
  // Off while hydrating (what the server rendered), then the stored choice.
  const [enabled, setEnabled] = useState(false);
  useEffect(() => setEnabled(readChoice()), []);

  useEffect(() => {
    const video = document.querySelector<HTMLVideoElement>('video[data-video]');
    if (!video) return;
    let arrived = false;
    try {
      arrived = sessionStorage.getItem(ARRIVED_BY_AUTOPLAY_KEY) === '1';
      sessionStorage.removeItem(ARRIVED_BY_AUTOPLAY_KEY);
    } catch {
      /* storage refused: nothing to resume */
    }
    // Data saver: the next video waits for a press of play like any other.
    const start = () => {
      if (arrived && readChoice() && !isDataSaverOn()) video.play().catch(() => undefined);
      arrived = false;
    };
    if (video.readyState >= 2) start();
    else video.addEventListener('canplay', start, { once: true });
    const onEnded = () => {
      if (!readChoice() || !nextHref) return;
      // A video of several parts goes on only after its last part.
      const parts = document.querySelectorAll('.player-parts button');
      if (parts.length > 1 && parts[parts.length - 1].getAttribute('aria-current') !== 'true') return;
      try {
        sessionStorage.setItem(ARRIVED_BY_AUTOPLAY_KEY, '1');
      } catch {
        /* the next video then waits for a click */
      }
      location.assign(nextHref);
    };
    video.addEventListener('ended', onEnded);
    return () => {
      video.removeEventListener('ended', onEnded);
      video.removeEventListener('canplay', start);
    };
  }, [nextHref]);

  const change = (on: boolean) => {
    setEnabled(on);
    try {
      localStorage.setItem(AUTOPLAY_NEXT_KEY, on ? '1' : '0');
    } catch {
      /* kept for this page only */
    }
  };

  return (
    <label className="collection-autoplay" data-autoplay-next>
      <input
        type="checkbox"
        role="switch"
        checked={enabled}
        onChange={(e) => change(e.target.checked)}
        data-autoplay-next-switch
      />
      <span>{t('collections.autoplayNext')}</span>
    </label>
  );
}
