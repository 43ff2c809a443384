import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { searchAudio } from '../../lib/api/index.ts';
import type { AudioThumb } from '../../lib/api/contracts/audio.ts';
import { formatCount, formatDuration, userPath } from '../../lib/catalogue/format.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { AUDIO_CARD_IMAGE_SIZES } from '../../lib/catalogue/poster.ts';
import { SEARCH_TRACK_ROW } from '../../lib/catalogue/search-query.ts';
import { PosterImage } from '../../components/PosterImage.tsx';
import './audio.css';

/**
 * Search results' tracks (a keyword, or one tag): a row of cards above the videos; nothing when
 * none match. `initial`: what the page found on the server (null: ask the API once mounted).
 */
export default function TrackResults({
  locale,
  t,
  query,
  initial,
}: {
  locale: Locale;
  t: TFunction;
  query: { keyword: string } | { tagId: number };
  initial: AudioThumb[] | null;
}) {
  const [tracks, setTracks] = useState<AudioThumb[]>(initial ?? []);
  const key = JSON.stringify(query);
  useEffect(() => {
    if (initial) return;
    let live = true;
    void searchAudio(query, { page: 1, pageSize: SEARCH_TRACK_ROW }).then(
      (r) => live && setTracks(r.tracks),
      () => live && setTracks([]),
    );
    return () => {
      live = false;
    };
  }, [key]);
  if (!tracks.length) return null;
  return (
    <section className="audio-row" data-list="search-audio">
      <h2>{t('audio.searchHeading')}</h2>
      <ul className="audio-grid">
        {tracks.map((track) => {
          const href = localizePath(`/audio/ka${track.audioId}`, locale);
          return (
            <li key={track.audioId}>
              <article className="audio-card" data-audio-id={track.audioId}>
                <a className="audio-card-cover" href={href} tabIndex={-1} aria-hidden="true">
                  {track.cover ? (
                    <PosterImage image={track.cover} sizes={AUDIO_CARD_IMAGE_SIZES} width={200} height={200} />
                  ) : (
                    <span className="audio-cover-empty">♪</span>
                  )}
                  <span className="audio-card-badge">{formatDuration(track.duration)}</span>
                </a>
                <a className="audio-card-title" href={href} title={track.title}>
                  {track.title}
                </a>
                <p className="audio-card-meta">
                  <a href={userPath(track.uploaderId, locale)}>
                    {track.artist || track.uploaderNickname || track.uploader}
                  </a>
                  <span title={t('audio.plays', { count: track.playCount })}>
                    <span aria-hidden="true">▶</span> {formatCount(track.playCount, locale)}
                  </span>
                </p>
              </article>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
