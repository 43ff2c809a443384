import type { MouseEvent } from 'react';
import type { Translate } from '../../lib/i18n/translate.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import type { PlayerPart } from '../../lib/player/parts.ts';

/**
 * The parts of a video of two or more (P1, P2… with their titles and lengths), as links to
 * ?p=N: a plain click switches in place (and adds a history entry), a click that opens a new tab
 * or window, or a copied link, opens that part.
 */
export default function PartList({
  t,
  locale,
  videoId,
  parts,
  current,
  onSelect,
}: {
  t: Translate;
  locale: Locale;
  videoId: number;
  parts: PlayerPart[];
  current: number;
  onSelect: (index: number) => void;
}) {
  const base = localizePath(`/video/kv${videoId}`, locale);
  const pick = (e: MouseEvent, index: number) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    onSelect(index);
  };
  return (
    <nav className="player-parts" aria-labelledby={`parts-${videoId}`} data-parts={parts.length}>
      <h2 className="player-parts-title" id={`parts-${videoId}`}>
        {t('parts.listTitle')}{' '}
        <span className="player-parts-count">{t('parts.position', { current: current + 1, count: parts.length })}</span>
      </h2>
      <ol className="player-parts-list">
        {parts.map((p, i) => (
          <li key={p.id}>
            <a
              href={`${base}?p=${i + 1}`}
              aria-current={i === current ? 'true' : undefined}
              onClick={(e) => pick(e, i)}
              data-part-link={i + 1}
            >
              <span className="part-number">P{i + 1}</span>
              <span className="part-title">{p.title || t('parts.untitled', { n: i + 1 })}</span>
              {p.duration > 0 && <span className="part-duration">{formatTimecode(p.duration / 1000)}</span>}
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
