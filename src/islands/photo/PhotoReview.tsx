import { call } from '../../lib/api/client.ts';
import type { PendingPhotosResponse } from '../../lib/api/contracts/photo.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import { photoPostPath, pictureSources } from '../../lib/photo/picture.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useReviewQueue } from '../settings/use-review-queue.ts';
import { RejectForm } from '../settings/RejectForm.tsx';
import Pager from '../settings/Pager.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import '../settings/video-review.css';
import '../../styles/photo.css';

const PAGE_SIZE = 10;

/** Settings > Content (administrators): photo posts waiting for review, oldest first, every image with its alt text, to approve or reject with a reason for the uploader. */
export default function PhotoReview({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { data, page, pages, setPage, busy, error, approve, reject, rejecting, setRejecting } =
    useReviewQueue<PendingPhotosResponse>({
      t,
      pageSize: PAGE_SIZE,
      texts: 'photo.review',
      label: (id) => `kp${id}`,
      load: (page) => call('GET photo/pending', { page, pageSize: PAGE_SIZE }),
      count: (data) => data.photosCount,
      approve: (photoId) => call('POST photo/pending/approved', { photoId }),
      reject: (photoId, rejection) => call('POST photo/pending/rejected', { photoId, ...rejection }),
    });
  const date = (ms: number) =>
    new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section className="card admin-list" data-photo-review aria-labelledby="photo-review-title">
      <h2 id="photo-review-title">{t('photo.review.title')}</h2>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.photos.length === 0 && (
        <p className="review-empty" data-review-empty>
          {t('photo.review.empty')}
        </p>
      )}
      <ul className="review-items">
        {data?.photos.map((p) => {
          const href = photoPostPath(p.photoId, locale);
          return (
            <li key={p.photoId} className="review-item" data-photo-id={p.photoId}>
              <div className="video-review-body">
                <a href={href} target="_blank" rel="noopener" className="video-review-title">
                  <strong>{p.title}</strong>
                </a>
                <p className="user-meta">
                  kp{p.photoId} ·{' '}
                  <a href={localizePath(`/user/${p.uploaderInfo.uid}`, locale)}>
                    {p.uploaderInfo.userNickname || p.uploaderInfo.username}
                  </a>{' '}
                  · {date(p.uploadDate)}
                  {' · '}
                  {t(`upload.copyrights.${p.copyright}`)}
                  {p.originalAuthor && ` · ${p.originalAuthor}`}
                </p>
                <ul className="photo-review-images">
                  {p.images.map((image) => (
                    <li key={image.imageId}>
                      {/* Pending pictures are private: the site's own files, never a resizing service. */}
                      {image.base && (
                        <img
                          src={pictureSources(image)?.smallest}
                          alt={image.alt}
                          width={120}
                          height={Math.round(120 / (image.width / image.height || 1))}
                          loading="lazy"
                        />
                      )}
                      <small>{image.alt}</small>
                    </li>
                  ))}
                </ul>
                {p.tags.length > 0 && (
                  <ul className="user-tags">
                    {p.tags.map((tag) => (
                      <li key={tag.tagId}>{tagDisplayName(tag, locale)}</li>
                    ))}
                  </ul>
                )}
                {p.description && <p className="user-signature video-review-description">{p.description}</p>}
                <div className="review-actions">
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => void approve(p.photoId)}
                    data-approve-photo
                  >
                    {t('photo.review.approve')}
                  </button>
                  <button
                    type="button"
                    className="button secondary"
                    disabled={busy}
                    aria-expanded={rejecting === p.photoId}
                    onClick={() => setRejecting(rejecting === p.photoId ? null : p.photoId)}
                    data-reject
                  >
                    {t('rejection.reject')}
                  </button>
                  <a className="button secondary" href={href} target="_blank" rel="noopener">
                    {t('photo.review.open')}
                  </a>
                </div>
                {rejecting === p.photoId && (
                  <RejectForm
                    t={t}
                    title={p.title}
                    busy={busy}
                    onReject={(r) => void reject(p.photoId, r)}
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
