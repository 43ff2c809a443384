import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import { audioPath, formatDuration, videoPath } from '../../lib/catalogue/format.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import './related.css';

/** One entry of the list, whichever kind of media it is. */
interface RelatedItem {
  id: number;
  href: string;
  image: string;
  duration: number;
  title: string;
  by: string;
}

/** Asks for what is related to a video (GET video/related) or a track (GET audio/related). */
async function fetchRelated(mediaType: 'video' | 'audio', id: number, locale: Locale): Promise<RelatedItem[]> {
  if (mediaType === 'audio') {
    const { tracks } = await call('GET audio/related', { audioId: id, limit: 12 });
    return tracks.map((t) => ({
      id: t.audioId,
      href: audioPath(t.audioId, locale),
      image: t.cover,
      duration: t.duration,
      title: t.title,
      by: t.artist || t.uploaderNickname || t.uploader,
    }));
  }
  const { videos } = await call('GET video/related', { videoId: id, limit: 12 });
  return videos.map((v) => ({
    id: v.videoId,
    href: videoPath(v.videoId, locale),
    image: v.image,
    duration: v.duration,
    title: v.title,
    by: v.uploaderNickname || v.uploader,
  }));
}

/**
 * "Related videos" on the video page, "related tracks" on a track's page: shared tags, the same
 * uploader, and what the members who watched (or listened to) this one also did; what the viewer
 * blocked or hid is left out by the server. Nothing shows when there is nothing related.
 */
export default function RelatedVideos({
  locale,
  messages,
  videoId,
  mediaType = 'video',
}: {
  locale: Locale;
  messages: Messages;
  videoId: number;
  mediaType?: 'video' | 'audio';
}) {
  const t = useIslandTranslation(locale, messages);
  const [items, setItems] = useState<RelatedItem[] | null>(null);
  useEffect(() => {
    fetchRelated(mediaType, videoId, locale).then(setItems, () => setItems([]));
  }, [mediaType, videoId, locale]);
  // Until asked, a box of its own: an island with nothing in it has no size, so it would never
  // come into view and never hydrate (client:visible).
  if (items === null) return <div className="video-related-pending" aria-hidden="true" />;
  if (!items.length) return null;
  const titleId = `${mediaType}-related-title`;
  return (
    <aside className={`card video-related is-${mediaType}`} aria-labelledby={titleId} data-related-videos={mediaType}>
      <h2 id={titleId}>{t(mediaType === 'audio' ? 'moderation.related.tracks' : 'moderation.related.title')}</h2>
      <ul>
        {items.map((item) => (
          <li key={item.id}>
            <a href={item.href} {...{ [mediaType === 'audio' ? 'data-related-track' : 'data-related-video']: item.id }}>
              <span className="video-related-thumb">
                {item.image ? (
                  <img src={item.image} alt="" width="160" height={mediaType === 'audio' ? 160 : 90} loading="lazy" />
                ) : (
                  <span aria-hidden="true" />
                )}
                <span className="video-related-duration">{formatDuration(item.duration)}</span>
              </span>
              <span className="video-related-text">
                <span className="video-related-title">{item.title}</span>
                <small>{item.by}</small>
              </span>
            </a>
          </li>
        ))}
      </ul>
    </aside>
  );
}
