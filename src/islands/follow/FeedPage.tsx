import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import { getFeed } from '../../lib/api/calls/feed.ts';
import { mediaCard } from '../../lib/catalogue/media-cards.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { userPath } from '../../lib/catalogue/format.ts';
import { LoginPrompt } from '../auth/LoginPrompt.tsx';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { VideoCard, VideoGrid } from '../../components/VideoList.tsx';
import FollowButton from './FollowButton.tsx';
import { useCursorPages } from './use-cursor-pages.ts';
import LoadMore from './LoadMore.tsx';
import './follow.css';
import { cardLoading } from '../../lib/catalogue/poster.ts';

const SUGGESTED = 6;
interface Uploader {
  uid: number;
  name: string;
}
const fetchFeed = (cursor?: string) =>
  getFeed(cursor).then((page) => ({ items: page.items, nextCursor: page.nextCursor }));

/**
 * /feed/following: the newest videos followed uploaders pushed to the feed, with their new tracks
 * and photo posts (each card leading to its own page, marked with its kind), a page at a time
 * ("load more" follows the cursor). Empty, it suggests the uploaders of the newest videos; guests
 * are asked to log in.
 */
export default function FeedPage({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const pages = useCursorPages(fetchFeed);
  const { items: videos, failed, load } = pages;
  const [suggestions, setSuggestions] = useState<Uploader[] | null>(null);

  useEffect(() => {
    if (uid) void load();
  }, [uid, load]);

  // An empty feed suggests the uploaders of the newest videos (not oneself).
  const empty = videos !== null && videos.length === 0;
  useEffect(() => {
    if (!empty || suggestions) return;
    call('GET video/home', { page: 1, pageSize: 40 }).then(
      ({ videos: newest }) => {
        const seen = new Map<number, Uploader>();
        for (const v of newest)
          if (v.uploaderId !== uid && !seen.has(v.uploaderId))
            seen.set(v.uploaderId, { uid: v.uploaderId, name: v.uploaderNickname || v.uploader });
        setSuggestions([...seen.values()].slice(0, SUGGESTED));
      },
      () => setSuggestions([]),
    );
  }, [empty, suggestions, uid]);

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card list-empty" aria-busy="true">
        …
      </div>
    );
  if (!uid) {
    return (
      <LoginPrompt message={t('follow.guest')} action={t('follow.login')} state={{ 'data-feed-state': 'guest' }} />
    );
  }
  if (failed && !videos?.length) {
    return (
      <div className="card list-empty" role="alert" data-feed-state="failed">
        <p>{t('follow.loadFailed')}</p>
        <button type="button" className="button secondary" onClick={() => void load()}>
          {t('follow.retry')}
        </button>
      </div>
    );
  }
  if (videos === null)
    return (
      <div className="card list-empty" aria-busy="true" data-feed-state="loading">
        …
      </div>
    );
  if (empty) {
    return (
      <section className="card feed-empty" data-feed-state="empty">
        <p className="feed-empty-text">{t('follow.empty')}</p>
        {!!suggestions?.length && (
          <>
            <h2 className="feed-suggestions-title" id="feed-suggestions">
              {t('follow.suggestions')}
            </h2>
            <ul className="feed-suggestions" aria-labelledby="feed-suggestions">
              {suggestions.map((u) => (
                <li key={u.uid} data-suggested-uid={u.uid}>
                  <a href={userPath(u.uid, locale)} className="feed-suggestion-name">
                    {u.name}
                  </a>
                  <FollowButton
                    locale={locale}
                    uid={u.uid}
                    name={u.name}
                    messages={messages}
                    onChange={(following) => following && void load()}
                  />
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    );
  }
  return (
    <div className="feed-page" data-feed-state="ready">
      <VideoGrid>
        {videos.map((item, index) => {
          const card = mediaCard(item, locale);
          return (
            <li key={card.key} data-feed-kind={card.kind}>
              <VideoCard
                video={card.thumb}
                locale={locale}
                t={t}
                loading={cardLoading(index)}
                href={card.href}
                extra={
                  card.kind === 'video' ? undefined : <p className="card-kind">{t(`catalogue.kind.${card.kind}`)}</p>
                }
              />
            </li>
          );
        })}
      </VideoGrid>
      <LoadMore
        pages={pages}
        labels={{ more: t('follow.loadMore'), end: t('follow.end'), failed: t('follow.loadFailed') }}
      />
    </div>
  );
}
