import { getMyVideos, deleteVideo } from '../../lib/api/index.ts';
import type { MyVideo } from '../../lib/api/contracts/video.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import Pager from '../settings/Pager.tsx';
import VideoEditor from './VideoEditor.tsx';
import SubtitlePanel from './SubtitlePanel.tsx';
import { DeleteUploadDialog, rejectionText, useMyUploads } from './use-my-uploads.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import '../uploader/uploader.css';
import '../settings/video-review.css';
import './my-videos.css';

/**
 * Settings > My videos: every video of the member's own, newest first, with where it stands
 * (processing, waiting for review, public, refused and why), its views, danmaku and comments;
 * each can be edited in place or deleted after a confirmation.
 */
export default function MyVideos({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const {
    self,
    page,
    setPage,
    pages,
    data,
    editing,
    setEditing,
    deleting,
    setDeleting,
    dialog,
    busy,
    error,
    confirmDelete,
    saved,
  } = useMyUploads<MyVideo>(t, {
    fetchPage: (query) => getMyVideos(query).then((r) => ({ items: r.videos, count: r.videosCount })),
    remove: (video) => deleteVideo(video.videoId),
    savedForReview: t('myVideos.savedForReview'),
  });

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!self.userInfo)
    return (
      <div className="card">
        <p>{t('myVideos.logIn')}</p>
      </div>
    );
  const date = (ms: number) => new Date(ms).toLocaleDateString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium' });
  const number = (n: number) => n.toLocaleString(LOCALE_INFO[locale].htmlLang);

  return (
    <section className="card admin-list" data-my-videos>
      <div className="my-videos-head">
        <p className="field-hint">{t('myVideos.intro')}</p>
        <a className="button" href={localizePath('/upload', locale)}>
          {t('myVideos.upload')}
        </a>
      </div>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.items.length === 0 && (
        <p className="review-empty" data-my-videos-empty>
          {t('myVideos.empty')}
        </p>
      )}
      <ul className="review-items">
        {data?.items.map((v) => {
          const href = localizePath(`/video/kv${v.videoId}`, locale);
          const open = v.state !== 'rejected' || v.editable;
          return (
            <li key={v.videoId} className="review-item my-video" data-video-id={v.videoId} data-state={v.state}>
              <div className="my-video-row">
                <a className="video-review-poster" href={open ? href : undefined} tabIndex={-1} aria-hidden="true">
                  {v.image ? (
                    <img src={v.image} alt="" width={240} height={135} loading="lazy" />
                  ) : (
                    <span className="cover-empty">16:9</span>
                  )}
                  {v.duration > 0 && <span className="video-review-duration">{formatTimecode(v.duration / 1000)}</span>}
                </a>
                <div className="video-review-body">
                  {open ? (
                    <a href={href} className="video-review-title" data-title>
                      <strong>{v.title}</strong>
                    </a>
                  ) : (
                    <strong className="video-review-title" data-title>
                      {v.title}
                    </strong>
                  )}
                  <p className="my-video-status">
                    <span className={`state-badge state-${v.state}`} data-state-badge>
                      {t(`myVideos.state.${v.state}`)}
                    </span>
                    {v.rejectionReason && (
                      <span className="field-hint" data-rejection-reason={v.rejectionReason}>
                        {rejectionText(t, v.rejectionReason)}
                      </span>
                    )}
                  </p>
                  {v.rejectionNote && (
                    <p className="rejection-note" data-rejection-note>
                      {t('rejection.note', { note: v.rejectionNote })}
                    </p>
                  )}
                  {v.subtitleNotes.length > 0 && (
                    <ul className="field-hint subtitle-notes" data-subtitle-notes>
                      {v.subtitleNotes.map((note) => (
                        <li key={`${note.part}-${note.code}-${note.stream}`} data-subtitle-note={note.code}>
                          {t(`myVideos.subtitleNotes.${note.code}`, {
                            part: note.part,
                            stream: note.stream,
                            codec: note.codec ?? `#${note.stream}`,
                          })}
                        </li>
                      ))}
                    </ul>
                  )}
                  <p className="user-meta">
                    kv{v.videoId} · {date(v.uploadDate)} · {t(`video.categories.${v.videoCategory}`)}
                  </p>
                  <ul className="my-video-stats" aria-label={t('myVideos.stats')}>
                    <li data-stat="views">
                      {t('myVideos.views', { count: v.watchedCount, n: number(v.watchedCount) })}
                    </li>
                    <li data-stat="danmaku">
                      {t('myVideos.danmaku', { count: v.danmakuCount, n: number(v.danmakuCount) })}
                    </li>
                    <li data-stat="comments">
                      {t('myVideos.comments', { count: v.commentCount, n: number(v.commentCount) })}
                    </li>
                  </ul>
                  {v.editable && (
                    <div className="review-actions">
                      <button
                        type="button"
                        className="button secondary"
                        disabled={busy}
                        aria-expanded={editing === v.videoId}
                        onClick={() => setEditing(editing === v.videoId ? null : v.videoId)}
                        data-edit
                      >
                        {t('myVideos.edit')}
                      </button>
                      <button
                        type="button"
                        className="button secondary danger"
                        disabled={busy}
                        onClick={() => setDeleting(v)}
                        data-delete
                      >
                        {t('myVideos.delete')}
                      </button>
                    </div>
                  )}
                </div>
              </div>
              {editing === v.videoId && (
                <>
                  <VideoEditor
                    locale={locale}
                    t={t}
                    video={v}
                    onSaved={(backToReview) => void saved(backToReview)}
                    onCancel={() => setEditing(null)}
                  />
                  <SubtitlePanel t={t} videoId={v.videoId} parts={v.partCount} />
                </>
              )}
            </li>
          );
        })}
      </ul>
      {pages > 1 && <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />}
      <DeleteUploadDialog
        t={t}
        dialog={dialog}
        id="delete-video-title"
        title={t('myVideos.confirmDeleteTitle')}
        text={t('myVideos.confirmDelete', { title: deleting?.title ?? '' })}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
