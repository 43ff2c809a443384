/**
 * Notifications (issue 27): one entry point, `notify`, that every event goes through (a comment
 * on one's upload, a reply, a mention, a follower, likes, a review's outcome, reports), and the
 * member's side: the list by tab with its text in their language, the unread count, marking
 * read, per-kind channels, the live count and the hourly e-mail digest.
 *
 * Rules kept here, once: nobody is notified of their own act, nor of a member they blocked or
 * who blocked them; a kind set to "off" stores nothing; likes of one item in one (UTC) day are
 * one entry ("A, B and 8 others liked …"); staff-only kinds reach staff only.
 *
 * Live: a stored notification is announced on the event bus channel `notifications` with its
 * recipient's uid (the bus reaches every server process: PostgreSQL LISTEN/NOTIFY or Redis);
 * each process that has the recipient's pages open reads the unread count once and writes it to
 * each of their streams (SSE, the live-danmaku stream's headers and heartbeat). Reading marks
 * announce too, so a member's other tabs follow.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { EventBus } from '../events/bus.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Logger } from '../logger.ts';
import { Invalid } from '../domain/errors.ts';
import { decodeCursor, paged } from './follows.ts';
import { LIVE_STREAM_HEADERS } from './live-danmaku.ts';
import { visibleText } from './comments.ts';
import type { ConversationEvent, ConversationEventKind, ConversationEvents } from './conversation-events.ts';
import { createWriteWindow } from './write-window.ts';
import { translatorFor } from '../../src/lib/i18n/catalogs.ts';
import { CATALOG_LOCALES, type CatalogLocale } from '../../src/lib/i18n/locales.ts';
import { can } from '../../src/lib/policy/policy.ts';
import {
  CATEGORY_OF,
  NOTIFICATION_ACTORS_SHOWN,
  NOTIFICATION_KINDS,
  STAFF_ONLY_KINDS,
  type Notification,
  type NotificationCategory,
  type NotificationChannel,
  type NotificationKind,
  type NotificationTargetType,
} from '../../src/lib/api/contracts/notification.ts';

export interface NotificationTarget {
  type: NotificationTargetType;
  id: number;
  title?: string | null;
}

export interface NotifyInput {
  kind: NotificationKind;
  recipientUid: number;
  /** Who did it; null for the site itself (a review's outcome is the site's word, not a reviewer's). */
  actorUid: number | null;
  target?: NotificationTarget | null;
  /** A quoted comment or reply (plain text, cut to EXCERPT_MAX). */
  excerpt?: string | null;
  /** A rejection's reason (REVIEW_REJECTION_REASONS) and the reviewer's note. */
  reason?: string | null;
  note?: string | null;
}

export interface NotificationOptions {
  bus: EventBus;
  mailer: Mailer;
  /** Signs the unsubscribe links. */
  signingSecret: string;
  /** The site's public origin, for the links in e-mails (PUBLIC_SITE_URL, else the local address). */
  siteOrigin: () => string;
  /** The API's path prefix (`/api/`). */
  apiPrefix: string;
  /** At most one digest per member this often (1 hour). */
  digestIntervalMs: number;
  /** How often this process looks for digests to send (0: never by itself). */
  digestCheckMs: number;
  heartbeatMs: number;
  logger?: Logger;
}

const CHANNEL = 'notifications';
/**
 * How long the likes of one item are gathered before its uploader's entry is written, once
 * (docs/decisions/0023): a hot item's likes would otherwise each update that one row.
 */
export const LIKE_NOTICE_WINDOW_MS = 1000;
const EXCERPT_MAX = 140;
/** Notifications in one digest; more are summed up as "and N more". */
const DIGEST_MAX = 20;
const encoder = new TextEncoder();
const HEARTBEAT = encoder.encode(':\n\n');
const unreadEvent = (unreadCount: number) =>
  encoder.encode(`event: unread\ndata: ${JSON.stringify({ unreadCount })}\n\n`);

const localeOf = (language: string | undefined): CatalogLocale =>
  (CATALOG_LOCALES as readonly string[]).includes(language ?? '') ? (language as CatalogLocale) : 'zhs';
const dayOf = (date: Date) => date.toISOString().slice(0, 10);
/** One entry per item and (UTC) day gathers its likes. */
const likeGroupKey = (target: { type: string; id: number }, day: string) => `like:${target.type}:${target.id}:${day}`;

/** Likes of one item, for one uploader and day, gathered in a window: the likers in the order they came. */
type LikeGroup = {
  recipientUid: number;
  target: { type: 'video' | 'audio' | 'photo'; id: number };
  day: string;
  actors: Set<number>;
};

type StoredRow = {
  id: number;
  kind: string;
  is_read: boolean;
  created_at: Date;
  actor_uids: number[];
  actor_count: number;
  target_type: string | null;
  target_id: number | null;
  detail: Record<string, unknown>;
};
type ActorInfo = { uid: number; username: string; user_nickname: string | null; avatar: string };

export function createNotificationService(
  repositories: Pick<Repositories, 'notifications' | 'blockLists'>,
  options: NotificationOptions & { likeWindowMs?: number },
) {
  const { notifications, blockLists } = repositories;
  const { bus, logger } = options;

  // ---- text ----

  /** The sentence of one notification in a language: its actors by name, its target's title, a reason. */
  function textOf(row: StoredRow, actors: ActorInfo[], locale: CatalogLocale): string {
    const { t } = translatorFor(locale);
    const names = actors.map((a) => a.user_nickname || a.username);
    const others = Math.max(0, row.actor_count - names.length);
    const who =
      names.length === 0
        ? t('notifications.someone')
        : others > 0
          ? t('notifications.actorsMany', {
              a: names.slice(0, 2).join(t('notifications.separator')),
              count: row.actor_count - Math.min(2, names.length),
            })
          : names.length === 1
            ? names[0]
            : t('notifications.actorsTwo', {
                a: names.slice(0, -1).join(t('notifications.separator')),
                b: names.at(-1),
              });
    const detail = row.detail as { title?: string | null; reason?: string | null };
    const title = detail.title ?? '';
    const reason = detail.reason ? t(`rejection.reasons.${detail.reason}`) : '';
    return t(`notifications.text.${row.kind}`, { who, title, reason });
  }

  async function present(rows: StoredRow[], locale: CatalogLocale): Promise<Notification[]> {
    const shown = rows.map((r) => r.actor_uids.slice(0, NOTIFICATION_ACTORS_SHOWN));
    const people = new Map((await notifications.actors([...new Set(shown.flat())])).map((a) => [a.uid, a]));
    return rows.map((row, i) => {
      const actors = shown[i].map((uid) => people.get(uid)).filter((a): a is ActorInfo => !!a);
      const detail = row.detail as { title?: string | null; excerpt?: string | null; note?: string | null };
      return {
        id: row.id,
        kind: row.kind as NotificationKind,
        isRead: row.is_read,
        createdAt: new Date(row.created_at).getTime(),
        actors: actors.map((a) => ({
          uid: a.uid,
          username: a.username,
          userNickname: a.user_nickname,
          avatar: a.avatar,
        })),
        actorCount: row.actor_count,
        target:
          row.target_type && row.target_id !== null
            ? { type: row.target_type as NotificationTargetType, id: row.target_id, title: detail.title ?? null }
            : null,
        text: textOf(row, actors, locale),
        excerpt: detail.excerpt ?? detail.note ?? null,
      };
    });
  }

  // ---- live ----

  const streams = new Map<number, Set<ReadableStreamDefaultController<Uint8Array>>>();
  let subscription: Promise<() => Promise<void>> | null = null;

  async function tellStreams(uid: number) {
    const open = streams.get(uid);
    if (!open?.size) return;
    const bytes = unreadEvent(await notifications.unreadCount(uid));
    for (const controller of open) {
      // A tab that leaves its stream unread this long is cut; its EventSource comes back.
      if ((controller.desiredSize ?? 0) < bytes.length)
        controller.error(new Error('notifications: the tab fell behind'));
      else controller.enqueue(bytes);
    }
  }

  function listen() {
    subscription ??= bus.subscribe(CHANNEL, (payload) => {
      const uid = Number(payload);
      if (Number.isSafeInteger(uid))
        tellStreams(uid).catch((error) => logger?.warn('notifications: the live count failed', { err: error, uid }));
    });
    return subscription;
  }

  const announce = (uid: number) =>
    bus
      .publish(CHANNEL, String(uid))
      .catch((error) => logger?.warn('notifications: announcing failed', { err: error, uid }));

  const heartbeat = setInterval(() => {
    for (const open of streams.values())
      for (const controller of open)
        if ((controller.desiredSize ?? 0) > HEARTBEAT.length) controller.enqueue(HEARTBEAT);
  }, options.heartbeatMs);
  heartbeat.unref();

  // ---- unsubscribe tokens ----

  const mac = (text: string) =>
    createHmac('sha256', options.signingSecret).update(`notification-unsubscribe\n${text}`).digest('base64url');
  /** A link's token: the member and the kinds whose e-mails it stops, signed. */
  function unsubscribeToken(uid: number, kinds: readonly NotificationKind[]): string {
    const body = Buffer.from(`${uid}.${kinds.join(',')}`).toString('base64url');
    return `${body}.${mac(body)}`;
  }
  function readToken(token: string): { uid: number; kinds: NotificationKind[] } {
    const refuse = () => new Invalid([{ path: 'token', message: 'is not a valid unsubscribe link' }]);
    const [body, signature, extra] = token.split('.');
    if (!body || !signature || extra !== undefined) throw refuse();
    const expected = Buffer.from(mac(body));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw refuse();
    const [uidText, kindsText] = Buffer.from(body, 'base64url').toString().split('.');
    const kinds = (kindsText ?? '').split(',');
    if (!/^\d{1,15}$/.test(uidText) || !kinds.every((k) => (NOTIFICATION_KINDS as readonly string[]).includes(k)))
      throw refuse();
    return { uid: Number(uidText), kinds: kinds as NotificationKind[] };
  }
  const unsubscribeUrl = (uid: number, kinds: readonly NotificationKind[]) =>
    `${options.siteOrigin()}${options.apiPrefix}notification/unsubscribe?token=${unsubscribeToken(uid, kinds)}`;

  // ---- e-mail digests ----

  /** Sends the digest of one member when it is due (claimed once across processes); true when one went. */
  async function sendDigest(uid: number): Promise<boolean> {
    const recipient = await notifications.recipient(uid);
    if (!recipient?.email) {
      await notifications.takeMailPending(uid, 0);
      return false;
    }
    if (!(await notifications.claimDigest(uid, options.digestIntervalMs))) return false;
    const rows = await notifications.takeMailPending(uid, DIGEST_MAX + 1);
    if (!rows.length) return false;
    const locale = localeOf(recipient.interface_language);
    const { t } = translatorFor(locale);
    const shown = await present(rows.slice(0, DIGEST_MAX), locale);
    const kinds = [...new Set(shown.map((n) => n.kind))];
    const lines = shown.map((n) => `• ${n.text}${n.excerpt ? `\n  “${n.excerpt}”` : ''}`);
    if (rows.length > DIGEST_MAX) lines.push(t('notifications.mail.more'));
    const stop = kinds.map((kind) => `${t(`notifications.kinds.${kind}`)}: ${unsubscribeUrl(uid, [kind])}`);
    await options.mailer.send({
      to: recipient.email,
      subject: t('notifications.mail.subject', { count: shown.length }),
      text: [
        t('notifications.mail.intro'),
        '',
        ...lines,
        '',
        `${t('notifications.mail.open')} ${options.siteOrigin()}/notifications/`,
        '',
        t('notifications.mail.stop'),
        ...stop,
        '',
        '— Kiraboshi',
      ].join('\n'),
      headers: {
        'List-Unsubscribe': `<${unsubscribeUrl(uid, kinds)}>`,
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
    });
    return true;
  }

  /** Every digest now due (members with mail waiting whose last digest is an interval old). */
  async function sendDigests(): Promise<number> {
    let sent = 0;
    for (const uid of await notifications.waitingForMail(500)) {
      try {
        if (await sendDigest(uid)) sent++;
      } catch (error) {
        logger?.warn('notifications: a digest could not be sent', { err: error, uid });
      }
    }
    return sent;
  }

  let digestTimer: NodeJS.Timeout | undefined;
  let digesting = false;
  if (options.digestCheckMs > 0) {
    digestTimer = setInterval(() => {
      if (digesting) return;
      digesting = true;
      sendDigests()
        .catch((error) => logger?.warn('notifications: digests failed', { err: error }))
        .finally(() => {
          digesting = false;
        });
    }, options.digestCheckMs);
    digestTimer.unref();
  }

  // ---- likes, gathered per item ----

  /** A window's likes of one item as its uploader's entry: `notify`'s rules, for every liker at once. */
  async function storeLikes(group: LikeGroup): Promise<void> {
    const { recipientUid, target } = group;
    const likers = [...group.actors].filter((uid) => uid !== recipientUid).reverse();
    if (!likers.length) return;
    const [recipient, channel, blocked] = await Promise.all([
      notifications.recipient(recipientUid),
      notifications.channelOf(recipientUid, 'like'),
      blockLists.blockedEitherWay(recipientUid, likers),
    ]);
    const actors = likers.filter((uid) => !blocked.has(uid));
    if (!recipient || channel === 'off' || !actors.length) return;
    const title = (await notifications.upload(target.type, target.id))?.title;
    await notifications.addToGroup(
      {
        recipientUid,
        kind: 'like',
        category: CATEGORY_OF.like,
        targetType: target.type,
        targetId: target.id,
        detail: title ? { title } : {},
        mailPending: channel === 'email',
        groupKey: likeGroupKey(target, group.day),
      },
      actors,
    );
    void announce(recipientUid);
  }

  const likeWindow = createWriteWindow<Map<string, LikeGroup>>({
    windowMs: options.likeWindowMs ?? LIKE_NOTICE_WINDOW_MS,
    empty: () => new Map(),
    // Each item's entry on its own; one written is taken out, so a failure puts back only the others.
    write: async (groups) => {
      const failures: unknown[] = [];
      await Promise.all(
        [...groups].map(([key, group]) =>
          storeLikes(group).then(
            () => groups.delete(key),
            (error: unknown) => failures.push(error),
          ),
        ),
      );
      if (failures.length) throw failures[0];
    },
    merge: (into, from) => {
      for (const [key, group] of from) {
        const open = into.get(key);
        if (!open) into.set(key, group);
        else open.actors = new Set([...group.actors, ...open.actors]);
      }
    },
    onError: (error) =>
      logger?.warn('notifications: likes could not be stored, kept for the next window', { err: error }),
  });

  async function blockedEitherWay(a: number, b: number): Promise<boolean> {
    const [one, other] = await Promise.all([blockLists.isBlockedBy(a, b), blockLists.isBlockedBy(b, a)]);
    return one || other;
  }

  return {
    /**
     * The one way a notification is made: applies the rules (never oneself, never across a
     * block, the recipient's channel, staff-only kinds, the likes' aggregation), stores it and
     * tells the recipient's open pages. Answers the entry's id, or null when nothing was stored.
     */
    async notify(input: NotifyInput): Promise<number | null> {
      const { kind, recipientUid, actorUid } = input;
      if (actorUid !== null && actorUid === recipientUid) return null;
      const [recipient, channel, blocked] = await Promise.all([
        notifications.recipient(recipientUid),
        notifications.channelOf(recipientUid, kind),
        actorUid === null ? false : blockedEitherWay(recipientUid, actorUid),
      ]);
      if (!recipient || blocked || channel === 'off') return null;
      if (
        STAFF_ONLY_KINDS.includes(kind) &&
        !can({ uid: recipient.uid, roles: recipient.roles }, 'notification.staffKinds')
      )
        return null;
      const target = input.target ?? null;
      if (target && !target.title && (target.type === 'video' || target.type === 'audio' || target.type === 'photo')) {
        target.title = (await notifications.upload(target.type, target.id))?.title ?? null;
      }
      const detail: Record<string, unknown> = {};
      if (target?.title) detail.title = target.title;
      if (input.excerpt) detail.excerpt = input.excerpt.replace(/\s+/g, ' ').trim().slice(0, EXCERPT_MAX);
      if (input.reason) detail.reason = input.reason;
      if (input.note) detail.note = input.note.slice(0, 1000);
      const id = await notifications.insert({
        recipientUid,
        kind,
        category: CATEGORY_OF[kind],
        actorUid,
        targetType: target?.type ?? null,
        targetId: target?.id ?? null,
        detail,
        mailPending: channel === 'email',
        groupKey: kind === 'like' && target ? likeGroupKey(target, dayOf(new Date())) : null,
      });
      void announce(recipientUid);
      return id;
    },

    /**
     * `notify` for an act that already succeeded (a comment, a follow, a review): a failure to
     * notify is logged and never undoes or fails the act.
     */
    async notifyQuietly(input: NotifyInput): Promise<void> {
      await this.notify(input).catch((error) =>
        logger?.warn('notifications: could not notify', { err: error, kind: input.kind }),
      );
    },

    /**
     * A new like: its uploader's entry for the item and day gets the liker within
     * LIKE_NOTICE_WINDOW_MS, with the other likes of that window, in one write (and the
     * recipient's open pages hear of it then).
     */
    likeGiven(like: { recipientUid: number; actorUid: number; target: LikeGroup['target'] }): void {
      if (like.actorUid === like.recipientUid) return;
      const day = dayOf(new Date());
      const key = `${like.recipientUid}:${likeGroupKey(like.target, day)}`;
      const groups = likeWindow.current();
      let group = groups.get(key);
      if (!group)
        groups.set(key, (group = { recipientUid: like.recipientUid, target: like.target, day, actors: new Set() }));
      // A liker seen again (liked, took it back, liked again) moves to the newest place.
      group.actors.delete(like.actorUid);
      group.actors.add(like.actorUid);
    },

    /** Writes the likes gathered now (the drain calls it before the database closes; tests to skip the wait). */
    flushLikes: () => likeWindow.flush(),

    /** A notification of a kind every staff member hears of (a new report). */
    async notifyStaff(input: Omit<NotifyInput, 'recipientUid'>): Promise<number> {
      let stored = 0;
      for (const uid of await notifications.staffUids())
        if ((await this.notify({ ...input, recipientUid: uid })) !== null) stored++;
      return stored;
    },

    /** A review's outcome, told to the uploader (the site speaks, not the reviewer). */
    async uploadReviewed(
      type: 'video' | 'audio' | 'photo',
      id: number,
      outcome: { approved: true } | { approved: false; reason: string; note: string },
    ) {
      const upload = await notifications.upload(type, id);
      if (!upload) return;
      await this.notifyQuietly({
        kind: outcome.approved ? 'uploadApproved' : 'uploadRejected',
        recipientUid: upload.uploaderUid,
        actorUid: null,
        target: { type, id, title: upload.title },
        ...(outcome.approved ? {} : { reason: outcome.reason, note: outcome.note || null }),
      });
    },

    /** A page of the member's own notifications (of one tab), with the unread count. */
    async list(
      uid: number,
      query: { cursor?: string; kind?: NotificationCategory; pageSize: number },
      locale: CatalogLocale,
    ) {
      const after = decodeCursor(query.cursor);
      if (after?.kind) throw new Invalid([{ path: 'cursor', message: 'is not a cursor' }]);
      const [rows, unreadCount] = await Promise.all([
        notifications.page(uid, query.kind, after, query.pageSize + 1),
        notifications.unreadCount(uid),
      ]);
      const { page, nextCursor } = paged(rows, query.pageSize, (row) => row.id);
      return { notifications: await present(page, locale), nextCursor, unreadCount };
    },

    unreadCount: (uid: number) => notifications.unreadCount(uid),

    /** Marks read (one's own only); the member's open pages hear the new count. */
    async markRead(uid: number, ids: number[] | 'all'): Promise<number> {
      if (await notifications.markRead(uid, ids)) void announce(uid);
      return notifications.unreadCount(uid);
    },

    async settings(uid: number): Promise<Record<NotificationKind, NotificationChannel>> {
      const chosen = new Map((await notifications.settings(uid)).map((s) => [s.kind, s.channel]));
      return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, chosen.get(kind) ?? 'site'])) as Record<
        NotificationKind,
        NotificationChannel
      >;
    },

    async setChannel(uid: number, kind: NotificationKind, channel: NotificationChannel) {
      await notifications.setChannel(uid, kind, channel);
      return this.settings(uid);
    },

    unsubscribeToken,
    /**
     * What an unsubscribe link asks to confirm: its kinds, in its member's language (refused when
     * its signature is wrong). Nothing changes: mail scanners open links.
     */
    async unsubscribeAsk(token: string): Promise<{ token: string; kinds: NotificationKind[]; locale: CatalogLocale }> {
      const { uid, kinds } = readToken(token);
      return { token, kinds, locale: localeOf((await notifications.recipient(uid))?.interface_language) };
    },
    /** Turns the e-mails of the link's kinds off (they stay on the site); answers the member's language. */
    async unsubscribe(token: string): Promise<{ kinds: NotificationKind[]; locale: CatalogLocale }> {
      const { uid, kinds } = readToken(token);
      const recipient = await notifications.recipient(uid);
      if (!recipient) throw new Invalid([{ path: 'token', message: 'is not a valid unsubscribe link' }]);
      for (const kind of kinds)
        if ((await notifications.channelOf(uid, kind)) === 'email') await notifications.setChannel(uid, kind, 'site');
      return { kinds, locale: localeOf(recipient.interface_language) };
    },

    sendDigests,

    /** One tab's stream of the member's unread count: the count now, then each change. */
    async open(uid: number): Promise<Response> {
      await listen();
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      const leave = () => {
        const open = streams.get(uid);
        open?.delete(controller);
        if (open && !open.size) streams.delete(uid);
      };
      const body = new ReadableStream<Uint8Array>(
        {
          start(c) {
            controller = c;
          },
          cancel: leave,
        },
        new ByteLengthQueuingStrategy({ highWaterMark: 16 * 1024 }),
      );
      let open = streams.get(uid);
      if (!open) streams.set(uid, (open = new Set()));
      open.add(controller);
      controller.enqueue(encoder.encode('retry: 1000\n\n'));
      controller.enqueue(unreadEvent(await notifications.unreadCount(uid)));
      return new Response(body, { headers: LIVE_STREAM_HEADERS });
    },

    close() {
      clearInterval(heartbeat);
      clearInterval(digestTimer);
      for (const open of streams.values()) for (const controller of open) controller.close();
      streams.clear();
      void subscription?.then(
        (unsubscribe) => unsubscribe(),
        () => {},
      );
    },
  };
}
export type NotificationService = ReturnType<typeof createNotificationService>;

/**
 * The events as notifications of their recipients (a reply, a comment on one's upload, a
 * mention with the words quoted, stored before the writer's answer; likes gathered per item in
 * a window of LIKE_NOTICE_WINDOW_MS and per day by the notification service), then passed on to `next`. A notification that fails is logged by the service, never the writer's.
 */
export function notifiedConversations(
  repositories: Pick<Repositories, 'comments'>,
  notifications: Pick<NotificationService, 'notifyQuietly' | 'likeGiven'>,
  next: ConversationEvents,
): ConversationEvents {
  const notify = async (kind: ConversationEventKind, event: ConversationEvent) => {
    const comment =
      event.commentId === undefined
        ? undefined
        : await repositories.comments.byIdAnyState(event.commentId).catch(() => undefined);
    await notifications.notifyQuietly({
      kind,
      recipientUid: event.recipientUid,
      actorUid: event.actorUid,
      target: { type: event.mediaType, id: event.mediaId },
      excerpt: comment ? visibleText(comment.text) : null,
    });
  };
  // Awaited by the writer, so its answer comes once the recipient's notification is stored (likes: see onLike).
  const both =
    (kind: ConversationEventKind, forward: (event: ConversationEvent) => void | Promise<void>) =>
    async (event: ConversationEvent) => {
      await notify(kind, event);
      await forward(event);
    };
  // A like joins its item's window instead (a hot item's likes are one write a window, not one each).
  const onLike = async (event: ConversationEvent) => {
    notifications.likeGiven({
      recipientUid: event.recipientUid,
      actorUid: event.actorUid,
      target: { type: event.mediaType, id: event.mediaId },
    });
    await next.onLike(event);
  };
  return {
    onComment: both('comment', next.onComment),
    onReply: both('reply', next.onReply),
    onMention: both('mention', next.onMention),
    onLike,
  };
}
