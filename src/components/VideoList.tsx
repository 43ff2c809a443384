/**
 * React twins of VideoCard.astro, VideoGrid.astro and Pager.astro for islands (search, history):
 * the same markup and classes, so a list looks the same whichever side rendered it.
 */
import type { ReactNode } from 'react';
import '../styles/catalogue.css';
import type { VideoThumb } from '../lib/api/contracts/video.ts';
import type { PictureLoading } from '../lib/catalogue/poster.ts';
import type { Locale } from '../lib/i18n/locales.ts';
import { PosterImage } from './PosterImage.tsx';
import {
  formatCardDate,
  formatCount,
  formatDuration,
  pageCount,
  pageHref,
  pageWindow,
  userPath,
  videoPath,
} from '../lib/catalogue/format.ts';

import type { TFunction } from 'i18next';
import { useHydrated, useHydratedStore } from '../islands/use-hydrated-store.ts';
import { $appSettings, DEFAULT_APP_SETTINGS, preferenceOn } from '../lib/stores/app-settings.ts';

type Translate = TFunction;

export function VideoCard({
  video,
  locale,
  t,
  progress,
  extra,
  loading = 'lazy',
  href: link,
}: {
  video: VideoThumb;
  locale: Locale;
  t: Translate;
  /** How its poster loads (cardLoading in poster.ts: the first row at once, two of it first). */
  loading?: PictureLoading;
  /** Where the card leads, when not to the video (a photo post in the history). */
  href?: string;
  /** 0..1: how far the viewer got (history). */
  progress?: number;
  /** A line under the stats (history: "watched to 1:23"). */
  extra?: ReactNode;
}) {
  const href = link ?? videoPath(video.videoId, locale);
  const relativeDate = preferenceOn('relativeDate', useHydratedStore($appSettings, DEFAULT_APP_SETTINGS));
  const hydrated = useHydrated();
  return (
    <article className="video-card" data-video-id={video.videoId} data-status={video.status}>
      <a className="video-cover" href={href} tabIndex={-1} aria-hidden="true">
        {video.image ? (
          <PosterImage image={video.image} loading={loading} />
        ) : (
          <span className="video-cover-empty">✦</span>
        )}
        {/* A photo post (history) has no duration to show. */}
        {video.videoCategory !== 'photo' && <span className="video-badge">{formatDuration(video.duration)}</span>}
        {video.status === 'pending' && <span className="video-status">{t('catalogue.card.pending')}</span>}
        {progress !== undefined && (
          <span className="video-progress" role="presentation">
            <span style={{ width: `${Math.round(progress * 100)}%` }} />
          </span>
        )}
      </a>
      <div className="video-info">
        <a className="video-title" href={href} title={video.title}>
          {video.title}
        </a>
        <a className="video-uploader" href={userPath(video.uploaderId, locale)}>
          {video.uploaderNickname || video.uploader}
        </a>
        <p className="video-stats">
          {/* Nor views to count. */}
          {video.videoCategory !== 'photo' && (
            <span title={t('catalogue.card.watchCount', { count: video.watchedCount })}>
              <span aria-hidden="true">▶</span> {formatCount(video.watchedCount, locale)}
            </span>
          )}
          {/* Written by the server (in its time zone, maybe minutes ago in a cached page), kept while
              hydrating and written anew right after: the key makes it a new element. */}
          <time
            key={hydrated ? 'browser' : 'server'}
            suppressHydrationWarning
            dateTime={new Date(video.uploadDate).toISOString()}
          >
            {formatCardDate(video.uploadDate, locale, relativeDate)}
          </time>
        </p>
        {extra}
      </div>
    </article>
  );
}

export function VideoGrid({ children }: { children: ReactNode }) {
  return (
    <div className="video-grid-box">
      <ul className="video-grid">{children}</ul>
    </div>
  );
}

/** Page links (real links: each page has its own address). */
export function Pager({
  t,
  total,
  page,
  pageSize,
  href,
}: {
  t: Translate;
  total: number;
  page: number;
  pageSize: number;
  href: string;
}) {
  const pages = pageCount(total, pageSize);
  if (pages <= 1) return null;
  return (
    <nav className="pager" aria-label={t('catalogue.pager.label')}>
      {page > 1 && (
        <a href={pageHref(href, page - 1)} rel="prev">
          {t('catalogue.pager.previous')}
        </a>
      )}
      {pageWindow(page, pages).map((p, i) =>
        p === null ? (
          <span key={`gap${i}`} className="pager-gap">
            …
          </span>
        ) : (
          <a key={p} href={pageHref(href, p)} aria-current={p === page ? 'page' : undefined}>
            {p}
          </a>
        ),
      )}
      {page < pages && (
        <a href={pageHref(href, page + 1)} rel="next" data-pager-next>
          {t('catalogue.pager.next')}
        </a>
      )}
    </nav>
  );
}
