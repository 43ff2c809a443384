import { useEffect, useRef, useState } from 'react';
import { getMyVideos, deleteVideo } from '../../lib/api/index.ts';
import type { MyVideo, MyVideosResponse } from '../../lib/api/contract.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useAction } from '../settings/use-action.ts';
import Pager from '../settings/Pager.tsx';
import VideoEditor from './VideoEditor.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import '../uploader/uploader.css';
import '../settings/video-review.css';
import './my-videos.css';

const PAGE_SIZE = 20;

/**
 * Settings > My videos: every video of the member's own, newest first, with where it stands
 * (processing, waiting for review, public, refused and why), its views, danmaku and comments;
 * each can be edited in place or deleted after a confirmation.
 */
export default function MyVideos({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { isEffectiveCheckOnce, userInfo } = useSelfUser();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<MyVideosResponse | null>(null);
  const [editing, setEditing] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<MyVideo | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);
  const { busy, error, run } = useAction(t('api.internal'));
  const load = () => getMyVideos({ page, pageSize: PAGE_SIZE }).then(setData);

  useEffect(() => { if (userInfo) void run(load); }, [userInfo?.uid, page]);
  const pages = Math.max(1, Math.ceil((data?.videosCount ?? 0) / PAGE_SIZE));
  // The last video of the last page went: show the page before it.
  useEffect(() => { if (data && page > pages) setPage(pages); }, [data, page, pages]);
  useEffect(() => { if (deleting) dialog.current?.showModal(); }, [deleting]);

  const confirmDelete = () => {
    const video = deleting;
    dialog.current?.close();
    if (!video) return;
    void run(async () => {
      await deleteVideo(video.videoId);
      showToast({ message: t('myVideos.deleted', { title: video.title }), severity: 'success' });
      await load();
    });
  };
  const saved = (backToReview: boolean) => run(async () => {
    setEditing(null);
    showToast({ message: t(backToReview ? 'myVideos.savedForReview' : 'myVideos.saved'), severity: 'success' });
    await load();
  });

  if (!isEffectiveCheckOnce) return <div className="card" aria-busy="true">…</div>;
  if (!userInfo) return <div className="card"><p>{t('myVideos.logIn')}</p></div>;
  const date = (ms: number) => new Date(ms).toLocaleDateString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium' });
  const number = (n: number) => n.toLocaleString(LOCALE_INFO[locale].htmlLang);

  return (
    <section className="card admin-list" data-my-videos>
      <div className="my-videos-head">
        <p className="field-hint">{t('myVideos.intro')}</p>
        <a className="button" href={localizePath('/upload', locale)}>{t('myVideos.upload')}</a>
      </div>
      {error && <p className="auth-error" role="alert">{error}</p>}
      {data && data.videos.length === 0 && <p className="review-empty" data-my-videos-empty>{t('myVideos.empty')}</p>}
      <ul className="review-items">
        {data?.videos.map((v) => {
          const href = localizePath(`/video/kv${v.videoId}`, locale);
          const open = v.state !== 'rejected' || v.editable;
          return (
            <li key={v.videoId} className="review-item my-video" data-video-id={v.videoId} data-state={v.state}>
              <div className="my-video-row">
                <a className="video-review-poster" href={open ? href : undefined} tabIndex={-1} aria-hidden="true">
                  {v.image ? <img src={v.image} alt="" width={240} height={135} loading="lazy" /> : <span className="cover-empty">16:9</span>}
                  {v.duration > 0 && <span className="video-review-duration">{formatTimecode(v.duration / 1000)}</span>}
                </a>
                <div className="video-review-body">
                  {open ? <a href={href} className="video-review-title" data-title><strong>{v.title}</strong></a>
                    : <strong className="video-review-title" data-title>{v.title}</strong>}
                  <p className="my-video-status">
                    <span className={`state-badge state-${v.state}`} data-state-badge>{t(`myVideos.state.${v.state}`)}</span>
                    {v.rejectionReason && <span className="field-hint" data-rejection-reason>{t(`myVideos.reason.${v.rejectionReason}`)}</span>}
                  </p>
                  <p className="user-meta">kv{v.videoId} · {date(v.uploadDate)} · {t(`video.categories.${v.videoCategory}`)}</p>
                  <ul className="my-video-stats" aria-label={t('myVideos.stats')}>
                    <li data-stat="views">{t('myVideos.views', { count: v.watchedCount, n: number(v.watchedCount) })}</li>
                    <li data-stat="danmaku">{t('myVideos.danmaku', { count: v.danmakuCount, n: number(v.danmakuCount) })}</li>
                    <li data-stat="comments">{t('myVideos.comments', { count: v.commentCount, n: number(v.commentCount) })}</li>
                  </ul>
                  {v.editable && (
                    <div className="review-actions">
                      <button type="button" className="button secondary" disabled={busy} aria-expanded={editing === v.videoId}
                        onClick={() => setEditing(editing === v.videoId ? null : v.videoId)} data-edit>{t('myVideos.edit')}</button>
                      <button type="button" className="button secondary danger" disabled={busy} onClick={() => setDeleting(v)} data-delete>{t('myVideos.delete')}</button>
                    </div>
                  )}
                </div>
              </div>
              {editing === v.videoId && (
                <VideoEditor locale={locale} t={t} video={v} onSaved={(backToReview) => void saved(backToReview)} onCancel={() => setEditing(null)} />
              )}
            </li>
          );
        })}
      </ul>
      {pages > 1 && <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />}
      <dialog ref={dialog} className="auth-dialog confirm-dialog" aria-labelledby="delete-video-title" onClose={() => setDeleting(null)} data-delete-dialog>
        <h2 id="delete-video-title">{t('myVideos.confirmDeleteTitle')}</h2>
        <p>{t('myVideos.confirmDelete', { title: deleting?.title ?? '' })}</p>
        <div className="review-actions">
          <button type="button" className="button danger" onClick={confirmDelete} data-confirm-delete>{t('myVideos.delete')}</button>
          <button type="button" className="button secondary" onClick={() => dialog.current?.close()} autoFocus>{t('myVideos.cancel')}</button>
        </div>
      </dialog>
    </section>
  );
}
