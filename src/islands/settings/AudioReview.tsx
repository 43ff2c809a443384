import { approvePendingAudio, getPendingAudio } from '../../lib/api/index.ts';
import { call } from '../../lib/api/client.ts';
import type { PendingAudioResponse } from '../../lib/api/contracts/audio.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { tagDisplayName } from '../../lib/tags/tag-name.ts';
import { formatTimecode } from '../../lib/player/shortcuts.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useReviewQueue } from './use-review-queue.ts';
import { RejectForm } from './RejectForm.tsx';
import Pager from './Pager.tsx';
import type { Messages } from '../../lib/i18n/translate.ts';
import './video-review.css';

const PAGE_SIZE = 10;

/** Settings > Content (administrators): audio tracks waiting for review, oldest first, to listen to, approve or reject with a reason for the uploader. */
export default function AudioReview({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const { data, page, pages, setPage, busy, error, approve, reject, rejecting, setRejecting } =
    useReviewQueue<PendingAudioResponse>({
      t,
      pageSize: PAGE_SIZE,
      texts: 'audio.review',
      label: (id) => `ka${id}`,
      load: (page) => getPendingAudio({ page, pageSize: PAGE_SIZE }),
      count: (data) => data.count,
      approve: approvePendingAudio,
      reject: (audioId, rejection) => call('POST audio/pending/rejected', { audioId, ...rejection }),
    });

  return (
    <section className="card admin-list" data-audio-review aria-labelledby="audio-review-title">
      <h2 id="audio-review-title">{t('audio.review.heading')}</h2>
      {error && (
        <p className="auth-error" role="alert">
          {error}
        </p>
      )}
      {data && data.tracks.length === 0 && (
        <p className="review-empty" data-review-empty>
          {t('audio.review.empty')}
        </p>
      )}
      <ul className="review-items">
        {data?.tracks.map((track) => {
          const href = localizePath(`/audio/ka${track.audioId}`, locale);
          return (
            <li key={track.audioId} className="review-item video-review-item" data-audio-id={track.audioId}>
              <div className="video-review-body">
                <a href={href} target="_blank" rel="noopener" className="video-review-title">
                  <strong>{track.title}</strong>
                </a>
                <p className="user-meta">
                  ka{track.audioId} · {track.artist && <>{track.artist} · </>}
                  <a href={localizePath(`/user/${track.uploaderId}`, locale)}>
                    {track.uploaderNickname || track.uploader}
                  </a>{' '}
                  · {formatTimecode(track.duration / 1000)}
                </p>
                {track.tags.length > 0 && (
                  <p className="user-meta">{track.tags.map((tag) => tagDisplayName(tag, locale)).join(' · ')}</p>
                )}
                {track.description && <p className="video-review-description">{track.description}</p>}
                <audio
                  controls
                  preload="none"
                  src={track.streamUrl}
                  aria-label={t('audio.review.listen', { title: track.title })}
                />
                <div className="review-actions">
                  <button
                    type="button"
                    className="button"
                    disabled={busy}
                    onClick={() => void approve(track.audioId)}
                    data-approve-audio={track.audioId}
                  >
                    {t('audio.review.approve')}
                  </button>
                  <button
                    type="button"
                    className="button secondary"
                    disabled={busy}
                    aria-expanded={rejecting === track.audioId}
                    onClick={() => setRejecting(rejecting === track.audioId ? null : track.audioId)}
                    data-reject
                  >
                    {t('rejection.reject')}
                  </button>
                </div>
                {rejecting === track.audioId && (
                  <RejectForm
                    t={t}
                    title={track.title}
                    busy={busy}
                    onReject={(r) => void reject(track.audioId, r)}
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
