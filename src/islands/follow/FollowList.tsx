import { useCallback, useEffect } from 'react';
import { getFollowPeople } from '../../lib/api/calls/feed.ts';
import type { FollowPerson } from '../../lib/api/contracts/feed.ts';
import { userPath } from '../../lib/catalogue/format.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import FollowButton from './FollowButton.tsx';
import { useCursorPages } from './use-cursor-pages.ts';
import LoadMore from './LoadMore.tsx';
import { Avatar, shownName } from './Avatar.tsx';
import './follow.css';

interface Props {
  locale: Locale;
  uid: number;
  side: 'followers' | 'followings';
  messages: Messages;
}

/**
 * /user/{uid}/followers and /followings: the people on one side of a user's follows, newest
 * follow first, a page at a time, each with a follow button (the viewer's own state comes with
 * the list, read again when the viewer logs in or out).
 */
export default function FollowList({ locale, uid, side, messages }: Props) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const viewerUid = self.userInfo?.uid ?? null;
  const fetchPage = useCallback(
    (cursor?: string) =>
      getFollowPeople(side, uid, cursor).then((page) => ({ items: page.result, nextCursor: page.nextCursor })),
    [side, uid],
  );
  const pages = useCursorPages<FollowPerson>(fetchPage);
  const { items: people, failed, load } = pages;

  useEffect(() => {
    if (self.isEffectiveCheckOnce) void load();
  }, [self.isEffectiveCheckOnce, viewerUid, load]);

  if (failed && !people?.length) {
    return (
      <div className="card list-empty" role="alert" data-follow-list-state="failed">
        <p>{t('followLists.loadFailed')}</p>
        <button type="button" className="button secondary" onClick={() => void load()}>
          {t('followLists.retry')}
        </button>
      </div>
    );
  }
  if (people === null)
    return (
      <div className="card list-empty" aria-busy="true" data-follow-list-state="loading">
        …
      </div>
    );
  if (!people.length) {
    return (
      <p className="card list-empty" data-follow-list-state="empty">
        {t(side === 'followers' ? 'followLists.noFollowers' : 'followLists.noFollowings')}
      </p>
    );
  }
  return (
    <section className="follow-list" data-follow-list={side} data-follow-list-state="ready">
      <ul className="follow-people">
        {people.map((person) => {
          const name = shownName(person);
          return (
            <li key={person.uid} className="follow-person" data-person-uid={person.uid}>
              <a className="follow-person-link" href={userPath(person.uid, locale)}>
                <Avatar src={person.avatar} name={name} size={48} />
                <span className="follow-person-text">
                  <strong className="follow-person-name">{name}</strong>
                  {person.signature && <small className="follow-person-signature">{person.signature}</small>}
                </span>
              </a>
              <FollowButton
                key={`${person.uid}:${viewerUid}`}
                locale={locale}
                uid={person.uid}
                name={name}
                messages={messages}
                known={{ isFollowing: person.isFollowing }}
              />
            </li>
          );
        })}
      </ul>
      <LoadMore
        pages={pages}
        labels={{ more: t('followLists.loadMore'), end: t('followLists.end'), failed: t('followLists.loadFailed') }}
      />
    </section>
  );
}
