import { useRef, useState } from 'react';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { embedCode, linkAtTime, type ShareKind } from '../../lib/share/share.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useDismiss } from '../use-dismiss.ts';
import './share.css';

interface Props {
  locale: Locale;
  messages: Messages;
  /** The page's canonical absolute address. */
  url: string;
  title: string;
  /** Videos and tracks have a moment to share and an embed; photo posts neither. */
  media?: { kind: ShareKind; id: number };
}

/** The playing element of the page (the video or the track), whose time a link can carry. */
const playingElement = () => document.querySelector<HTMLMediaElement>('main video, main audio');

/**
 * The share menu of the video, track and photo post pages: copy the link, the link at the
 * moment playing (`?t=83`, which the players honour on load), the embed code, and the system
 * share sheet where the browser has one. Closes on Esc and a press outside (use-dismiss).
 */
export default function ShareMenu({ locale, messages, url, title, media }: Props) {
  const t = useIslandTranslation(locale, messages);
  const [open, setOpen] = useState(false);
  const [moment, setMoment] = useState(0);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, box, () => setOpen(false), button);
  const canShareSheet = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const toggle = () => {
    setMoment(Math.floor(playingElement()?.currentTime ?? 0));
    setOpen((was) => !was);
  };
  const copy = async (text: string, done: string) => {
    try {
      await navigator.clipboard.writeText(text);
      showToast({ message: t(done), severity: 'success' });
    } catch {
      // Clipboard refused (an insecure page, a denied permission): the text to copy by hand.
      window.prompt(t('share.copyByHand'), text);
    }
    setOpen(false);
  };
  const shareSheet = async () => {
    setOpen(false);
    // A cancelled sheet rejects: nothing to say.
    await navigator.share({ title, url }).catch(() => {});
  };

  return (
    <div className="share-menu" ref={box} data-share-menu>
      <button
        type="button"
        ref={button}
        className="button secondary share-menu-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={toggle}
        data-share-button
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
          <path
            fill="currentColor"
            d="M18 16.1c-.8 0-1.5.3-2 .8l-7.1-4.2c.1-.2.1-.5.1-.7s0-.5-.1-.7L16 7.2c.5.5 1.2.8 2 .8 1.7 0 3-1.3 3-3s-1.3-3-3-3-3 1.3-3 3c0 .2 0 .5.1.7L8 9.8C7.5 9.3 6.8 9 6 9c-1.7 0-3 1.3-3 3s1.3 3 3 3c.8 0 1.5-.3 2-.8l7.1 4.2c-.1.2-.1.4-.1.6 0 1.6 1.3 2.9 2.9 2.9s2.9-1.3 2.9-2.9-1.2-2.9-2.8-2.9z"
          />
        </svg>
        {t('share.share')}
      </button>
      {open && (
        <div className="share-menu-list" role="menu" aria-label={t('share.share')} data-share-list>
          <button type="button" role="menuitem" onClick={() => void copy(url, 'share.linkCopied')} data-share-copy-link>
            {t('share.copyLink')}
          </button>
          {media && moment > 0 && (
            <button
              type="button"
              role="menuitem"
              onClick={() => void copy(linkAtTime(url, moment), 'share.linkCopied')}
              data-share-copy-time
            >
              {t('share.copyLinkAt', { time: formatTimecode(moment) })}
            </button>
          )}
          {media && (
            <button
              type="button"
              role="menuitem"
              onClick={() => void copy(embedCode(media.kind, media.id, new URL(url).origin), 'share.embedCopied')}
              data-share-copy-embed
            >
              {t('share.copyEmbed')}
            </button>
          )}
          {canShareSheet && (
            <button type="button" role="menuitem" onClick={() => void shareSheet()} data-share-sheet>
              {t('share.more')}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
