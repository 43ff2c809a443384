import { useCallback, useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import type { Notification, NotificationCategory } from '../../lib/api/contracts/notification.ts';
import { $unreadNotifications } from '../../lib/stores/notifications.ts';
import { audioPath, formatUploadDate, userPath, videoPath } from '../../lib/catalogue/format.ts';
import { localizePath, type Locale } from '../../lib/i18n/locales.ts';
import { photoPostPath } from '../../lib/photo/picture.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';
import { Avatar, shownName } from '../follow/Avatar.tsx';
import { useCursorPages } from '../follow/use-cursor-pages.ts';
import './notifications.css';

const TABS = ['all', 'reply', 'mention', 'like', 'system'] as const;
type Tab = (typeof TABS)[number];

/** Where a notification leads: its item's page, or the person's. */
function hrefOf(n: Notification, locale: Locale): string | undefined {
  const target = n.target;
  if (!target) return undefined;
  switch (target.type) {
    case 'video':
      return videoPath(target.id, locale);
    case 'audio':
      return audioPath(target.id, locale);
    case 'photo':
      return photoPostPath(target.id, locale);
    case 'user':
      return userPath(target.id, locale);
    default:
      return undefined;
  }
}

/**
 * The message centre (回复我的 / @我的 / 收到的赞 / 系统通知): the member's notifications by tab,
 * newest first, a cursor page at a time. What the bell's live count says arrived is fetched at
 * once (the first page again); opening one marks it read, and all can be marked read.
 */
export default function MessageCentre({ locale, messages }: { locale: Locale; messages: Messages }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const uid = self.userInfo?.uid;
  const unread = useHydratedStore($unreadNotifications, null);
  const [tab, setTab] = useState<Tab>('all');
  const fetchPage = useCallback(
    async (cursor?: string) => {
      const answer = await call('GET notification/list', {
        cursor,
        ...(tab === 'all' ? {} : { kind: tab as NotificationCategory }),
      });
      $unreadNotifications.set(answer.unreadCount);
      return { items: answer.notifications, nextCursor: answer.nextCursor };
    },
    [tab],
  );
  const { items, nextCursor, loading, failed, load } = useCursorPages<Notification>(fetchPage);
  const [readIds, setReadIds] = useState<ReadonlySet<number>>(new Set());

  useEffect(() => {
    if (uid) void load();
  }, [uid, load]);
  // The live count went up: something new arrived (the first page again shows it).
  const [seenUnread, setSeenUnread] = useState<number | null>(null);
  useEffect(() => {
    if (uid && unread !== null && seenUnread !== null && unread > seenUnread) void load();
    setSeenUnread(unread);
  }, [unread]); // eslint-disable-line react-hooks/exhaustive-deps

  if (!self.isEffectiveCheckOnce)
    return (
      <div className="card" aria-busy="true">
        …
      </div>
    );
  if (!uid) return null;

  const markRead = async (ids: number[] | 'all') => {
    const answer = await call('POST notification/read', ids === 'all' ? { all: true } : { ids });
    $unreadNotifications.set(answer.unreadCount);
    setReadIds((before) => new Set([...before, ...(ids === 'all' ? (items ?? []).map((n) => n.id) : ids)]));
  };

  return (
    <section className="message-centre" data-message-centre data-state={items === null ? 'loading' : 'ready'}>
      <div className="message-centre-bar">
        <div className="message-tabs" role="tablist">
          {TABS.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              aria-selected={tab === name}
              className="message-tab"
              data-tab={name}
              onClick={() => setTab(name)}
            >
              {t(`notifications.tabs.${name}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          className="button"
          disabled={!unread}
          onClick={() => void markRead('all')}
          data-mark-all-read
        >
          {t('notifications.ui.markAllRead')}
        </button>
      </div>
      {failed && (
        <p className="card" role="alert">
          {t('notifications.ui.loadFailed')}
        </p>
      )}
      {items !== null && items.length === 0 && <p className="card message-empty">{t('notifications.ui.empty')}</p>}
      <ul className="message-list">
        {(items ?? []).map((n) => {
          const isRead = n.isRead || readIds.has(n.id);
          const href = hrefOf(n, locale);
          const first = n.actors[0];
          return (
            <li key={n.id} className="message-item" data-notification={n.kind} data-read={isRead ? '' : undefined}>
              {first ? (
                <Avatar src={first.avatar} name={shownName(first)} size={40} />
              ) : (
                <span className="message-system-icon" aria-hidden="true">
                  ✦
                </span>
              )}
              <div className="message-body">
                {href ? (
                  <a
                    className="message-text"
                    href={href}
                    onClick={() => {
                      if (!isRead) void markRead([n.id]);
                    }}
                  >
                    {n.text}
                  </a>
                ) : (
                  <span className="message-text">{n.text}</span>
                )}
                {n.excerpt && <q className="message-excerpt">{n.excerpt}</q>}
                <time className="message-time" dateTime={new Date(n.createdAt).toISOString()}>
                  {formatUploadDate(n.createdAt, locale)}
                </time>
              </div>
              {!isRead && <span className="message-unread-dot" aria-hidden="true" />}
            </li>
          );
        })}
      </ul>
      {nextCursor && (
        <button type="button" className="button message-more" disabled={loading} onClick={() => void load(nextCursor)}>
          {t('notifications.ui.loadMore')}
        </button>
      )}
      <p className="message-settings-link">
        <a href={localizePath('/settings/notifications', locale)}>{t('notifications.ui.settingsLink')}</a>
      </p>
    </section>
  );
}
