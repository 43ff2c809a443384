import { deleteAudio, getMyTracks } from '../../lib/api/calls/audio.ts';
import type { MyTrack } from '../../lib/api/contracts/audio.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import Pager from '../settings/Pager.tsx';
import TrackEditor from './TrackEditor.tsx';
import { DeleteUploadDialog, rejectionText, useMyUploads } from '../my-videos/use-my-uploads.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import '../uploader/uploader.css';
import '../settings/video-review.css';
import '../my-videos/my-videos.css';

/**
 * Settings > My tracks (the twin of My videos): every track of the member's own, newest first,
 * with where it stands (waiting for review, public, rejected by a reviewer and why) and its plays; each can be edited in place
 * or deleted after a confirmation.
 */
export default function MyTracks({ locale, messages }: { locale: Locale; messages: Messages }) {
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
  } = useMyUploads<MyTrack>(t, {
    fetchPage: (query) => getMyTracks(query).then((r) => ({ items: r.tracks, count: r.count })),
    remove: (track) => deleteAudio(track.audioId),
    savedForReview: t('myTracks.savedForReview'),
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
        <p>{t('myTracks.logIn')}</p>
      </div>
    );
  const date = (ms: number) => new Date(ms).toLocaleDateString(LOCALE_INFO[locale].htmlLang, { dateStyle: 'medium' });
  const number = (n: number) => n.toLocaleString(LOCALE_INFO[locale].htmlLang);

  return (
    <section className="card admin-list" data-my-tracks>
      <div className="my-videos-head">
        <p className="field-hint">{t('myTracks.intro')}</p>
        <a className="button" href={localizePath('/upload/audio', locale)}>
          {t('myTracks.upload')}
        </a>
      </div>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.items.length === 0 && (
        <p className="review-empty" data-my-tracks-empty>
          {t('myTracks.empty')}
        </p>
      )}
      <ul className="review-items">
        {data?.items.map((track) => {
          const rejected = track.status === 'rejected';
          const href = rejected ? undefined : localizePath(`/audio/ka${track.audioId}`, locale);
          return (
            <li
              key={track.audioId}
              className="review-item my-video"
              data-audio-id={track.audioId}
              data-state={track.status}
            >
              <div className="my-video-row">
                <a className="video-review-poster my-track-cover" href={href} tabIndex={-1} aria-hidden="true">
                  {track.cover ? (
                    <img src={track.cover} alt="" width={135} height={135} loading="lazy" />
                  ) : (
                    <span className="cover-empty">♪</span>
                  )}
                  <span className="video-review-duration">{formatTimecode(track.duration / 1000)}</span>
                </a>
                <div className="video-review-body">
                  {href ? (
                    <a href={href} className="video-review-title" data-title>
                      <strong>{track.title}</strong>
                    </a>
                  ) : (
                    <strong className="video-review-title" data-title>
                      {track.title}
                    </strong>
                  )}
                  <p className="my-video-status">
                    <span className={`state-badge state-${track.status}`} data-state-badge>
                      {t(`myVideos.state.${track.status}`)}
                    </span>
                    {track.rejectionReason && (
                      <span className="field-hint" data-rejection-reason={track.rejectionReason}>
                        {rejectionText(t, track.rejectionReason)}
                      </span>
                    )}
                  </p>
                  {track.rejectionNote && (
                    <p className="rejection-note" data-rejection-note>
                      {t('rejection.note', { note: track.rejectionNote })}
                    </p>
                  )}
                  <p className="user-meta">
                    ka{track.audioId} · {track.artist && `${track.artist} · `}
                    {date(track.uploadDate)} · {t(`video.categories.${track.category}`)}
                  </p>
                  <ul className="my-video-stats" aria-label={t('myVideos.stats')}>
                    <li data-stat="plays">
                      {t('audio.plays', { count: track.playCount, n: number(track.playCount) })}
                    </li>
                  </ul>
                  {!rejected && (
                    <div className="review-actions">
                      <button
                        type="button"
                        className="button secondary"
                        disabled={busy}
                        aria-expanded={editing === track.audioId}
                        onClick={() => setEditing(editing === track.audioId ? null : track.audioId)}
                        data-edit
                      >
                        {t('myVideos.edit')}
                      </button>
                      <button
                        type="button"
                        className="button secondary danger"
                        disabled={busy}
                        onClick={() => setDeleting(track)}
                        data-delete
                      >
                        {t('myVideos.delete')}
                      </button>
                    </div>
                  )}
                </div>
              </div>
              {editing === track.audioId && (
                <TrackEditor
                  locale={locale}
                  t={t}
                  track={track}
                  onSaved={(backToReview) => void saved(backToReview)}
                  onCancel={() => setEditing(null)}
                />
              )}
            </li>
          );
        })}
      </ul>
      {pages > 1 && <Pager t={t} page={page} pages={pages} busy={busy} onPage={setPage} />}
      <DeleteUploadDialog
        t={t}
        dialog={dialog}
        id="delete-track-title"
        title={t('myTracks.confirmDeleteTitle')}
        text={t('myTracks.confirmDelete', { title: deleting?.title ?? '' })}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </section>
  );
}
