import { getPendingVideos, approvePendingVideo } from '../../lib/api/index.ts';
import { call } from '../../lib/api/client.ts';
import type { PendingVideosResponse } from '../../lib/api/contracts/video.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useReviewQueue } from './use-review-queue.ts';
import { RejectForm } from './RejectForm.tsx';
import Pager from './Pager.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import './video-review.css';

const PAGE_SIZE = 10;

/** Settings > Content (administrators): videos waiting for review, oldest first, to approve or reject with a reason for the uploader. */
export default function VideoReview({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { data, page, pages, setPage, busy, error, approve, reject, rejecting, setRejecting } =
    useReviewQueue<PendingVideosResponse>({
      t,
      pageSize: PAGE_SIZE,
      texts: 'videoReview',
      label: (id) => `kv${id}`,
      load: (page) => getPendingVideos({ page, pageSize: PAGE_SIZE }),
      count: (data) => data.videosCount,
      approve: approvePendingVideo,
      reject: (videoId, rejection) => call('POST video/pending/rejected', { videoId, ...rejection }),
    });
  const date = (ms: number) =>
    new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section className="card admin-list" data-video-review aria-labelledby="video-review-title">
      <h2 id="video-review-title">{t('videoReview.heading')}</h2>
      <p className="field-hint">{t('videoReview.intro')}</p>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.videos.length === 0 && (
        <p className="review-empty" data-review-empty>
          {t('videoReview.empty')}
        </p>
      )}
      <ul className="review-items">
        {data?.videos.map((v) => {
          const href = localizePath(`/video/kv${v.videoId}`, locale);
          return (
            <li key={v.videoId} className="review-item video-review-item" data-video-id={v.videoId}>
              <a className="video-review-poster" href={href} target="_blank" rel="noopener">
                {v.image ? (
                  <img src={v.image} alt="" width={240} height={135} loading="lazy" />
                ) : (
                  <span className="cover-empty" aria-hidden="true">
                    16:9
                  </span>
                )}
                {v.duration > 0 && <span className="video-review-duration">{formatTimecode(v.duration / 1000)}</span>}
              </a>
              <div className="video-review-body">
                <a href={href} target="_blank" rel="noopener" className="video-review-title">
                  <strong>{v.title}</strong>
                </a>
                <p className="user-meta">
                  kv{v.videoId} ·{' '}
                  <a href={localizePath(`/user/${v.uploaderId}`, locale)}>{v.uploaderNickname || v.uploader}</a> ·{' '}
                  {date(v.uploadDate)}
                </p>
                <p className="user-meta">
                  {t(`video.categories.${v.videoCategory}`)} · {t(`upload.copyrights.${v.copyright}`)}
                  {v.copyright !== 'original' && v.originalAuthor && (
                    <> · {t('videoReview.originalBy', { author: v.originalAuthor })}</>
                  )}
                  {v.originalLink && (
                    <>
                      {' '}
                      · <span className="video-review-link">{v.originalLink}</span>
                    </>
                  )}
                </p>
                {v.tags.length > 0 && (
                  <ul className="user-tags">
                    {v.tags.map((tag) => (
                      <li key={tag.tagId}>{tagDisplayName(tag, locale)}</li>
                    ))}
                  </ul>
                )}
                {v.description && <p className="user-signature video-review-description">{v.description}</p>}
                <div className="review-actions">
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => void approve(v.videoId)}
                    data-approve
                  >
                    {t('videoReview.approve')}
                  </button>
                  <button
                    type="button"
                    className="button secondary"
                    disabled={busy}
                    aria-expanded={rejecting === v.videoId}
                    onClick={() => setRejecting(rejecting === v.videoId ? null : v.videoId)}
                    data-reject
                  >
                    {t('rejection.reject')}
                  </button>
                  <a className="button secondary" href={href} target="_blank" rel="noopener">
                    {t('videoReview.open')}
                  </a>
                </div>
                {rejecting === v.videoId && (
                  <RejectForm
                    t={t}
                    title={v.title}
                    busy={busy}
                    onReject={(r) => void reject(v.videoId, r)}
                    onCancel={() => setRejecting(null)}
                  />
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {pages > 1 && <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />}
    </section>
  );
}
