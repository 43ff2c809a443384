import type { ReactNode } from 'react';
import type { TFunction } from 'i18next';
import type { CollectionSummary } from '../../lib/api/contracts/collection.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import { collectionPath } from '../../lib/catalogue/format.ts';
import { PosterImage } from '../../components/PosterImage.tsx';
import '../../styles/catalogue.css';
import './collections.css';

/** A collection in a list: its cover, title, visibility and counts (unavailable videos apart), and any actions below. */
export function CollectionCard({
  collection: c,
  locale,
  t,
  children,
}: {
  collection: CollectionSummary;
  locale: Locale;
  t: TFunction;
  children?: ReactNode;
}) {
  const href = collectionPath(c.collectionId, locale);
  return (
    <article className="collection-card" data-collection-id={c.collectionId} data-visibility={c.visibility}>
      <a className="video-cover" href={href} tabIndex={-1} aria-hidden="true">
        {c.cover ? <PosterImage image={c.cover} /> : <span className="video-cover-empty">★</span>}
        <span className="video-badge">{t('collections.videoCount', { count: c.videoCount })}</span>
        {c.visibility === 'private' && <span className="collection-private">{t('collections.private')}</span>}
      </a>
      <div className="video-info">
        <a className="video-title" href={href} data-collection-title>
          {c.title}
        </a>
        {c.description && <p className="collection-description">{c.description}</p>}
        {c.unavailableCount > 0 && (
          <p className="collection-unavailable" data-unavailable-count={c.unavailableCount}>
            {t('collections.unavailable', { count: c.unavailableCount })}
          </p>
        )}
        {children}
      </div>
    </article>
  );
}
