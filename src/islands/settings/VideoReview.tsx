import { useEffect, useState } from 'react';
import { getPendingVideos, approvePendingVideo, deleteVideo } from '../../lib/api/index.ts';
import type { PendingVideosResponse } from '../../lib/api/contract.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useAction } from './use-action.ts';
import Pager from './Pager.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import './video-review.css';

const PAGE_SIZE = 10;

/** Settings > Content (administrators): videos waiting for review, oldest first, with approve and delete. */
export default function VideoReview({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const [page, setPage] = useState(1);
  const [data, setData] = useState<PendingVideosResponse | null>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = () => getPendingVideos({ page, pageSize: PAGE_SIZE }).then(setData);

  useEffect(() => void run(load), [page]);
  const pages = Math.max(1, Math.ceil((data?.videosCount ?? 0) / PAGE_SIZE));
  // The last item of the last page went: show the page before it.
  useEffect(() => { if (data && page > pages) setPage(pages); }, [data, page, pages]);

  const act = (videoId: number, kind: 'approve' | 'delete') => run(async () => {
    if (kind === 'delete' && !window.confirm(t('videoReview.confirmDelete', { id: videoId }))) return;
    await (kind === 'approve' ? approvePendingVideo(videoId) : deleteVideo(videoId));
    showToast({ message: t(kind === 'approve' ? 'videoReview.approved' : 'videoReview.deleted', { id: videoId }), severity: 'success' });
    await load();
  });
  const date = (ms: number) => new Date(ms).toLocaleString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <section className="card admin-list" data-video-review>
      <p className="field-hint">{t('videoReview.intro')}</p>
      {error && <p className="auth-error" role="alert">{error}</p>}
      {data && data.videos.length === 0 && <p className="review-empty" data-review-empty>{t('videoReview.empty')}</p>}
      <ul className="review-items">
        {data?.videos.map((v) => {
          const href = localizePath(`/video/kv${v.videoId}`, locale);
          return (
            <li key={v.videoId} className="review-item video-review-item" data-video-id={v.videoId}>
              <a className="video-review-poster" href={href} target="_blank" rel="noopener">
                {v.image ? <img src={v.image} alt="" width={240} height={135} loading="lazy" /> : <span className="cover-empty" aria-hidden="true">16:9</span>}
                {v.duration > 0 && <span className="video-review-duration">{formatTimecode(v.duration / 1000)}</span>}
              </a>
              <div className="video-review-body">
                <a href={href} target="_blank" rel="noopener" className="video-review-title"><strong>{v.title}</strong></a>
                <p className="user-meta">
                  kv{v.videoId} · <a href={localizePath(`/user/${v.uploaderId}`, locale)}>{v.uploaderNickname || v.uploader}</a> · {date(v.uploadDate)}
                </p>
                <p className="user-meta">
                  {t(`video.categories.${v.videoCategory}`)} · {t(`upload.copyrights.${v.copyright}`)}
                  {v.copyright !== 'original' && v.originalAuthor && <> · {t('videoReview.originalBy', { author: v.originalAuthor })}</>}
                  {v.originalLink && <> · <span className="video-review-link">{v.originalLink}</span></>}
                </p>
                {v.tags.length > 0 && <ul className="user-tags">{v.tags.map((tag) => <li key={tag.tagId}>{tagDisplayName(tag, locale)}</li>)}</ul>}
                {v.description && <p className="user-signature video-review-description">{v.description}</p>}
                <div className="review-actions">
                  <button type="button" className="button" disabled={busy} onClick={() => void act(v.videoId, 'approve')} data-approve>{t('videoReview.approve')}</button>
                  <button type="button" className="button secondary" disabled={busy} onClick={() => void act(v.videoId, 'delete')} data-delete>{t('videoReview.delete')}</button>
                  <a className="button secondary" href={href} target="_blank" rel="noopener">{t('videoReview.open')}</a>
                </div>
              </div>
            </li>
          );
        })}
      </ul>
      {pages > 1 && (
        <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />
      )}
    </section>
  );
}
