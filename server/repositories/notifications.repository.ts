/** Notifications, their per-kind settings and the e-mail digests' clock (migration 0025). */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { microsOf, olderThan, type KeysetPosition } from './keyset.sql.ts';

/** Actors kept on an aggregated row (the newest first); `actor_count` counts every one. */
const ACTORS_KEPT = 10;
/** Unread notifications are counted up to this many (the bell shows 99+ past 99). */
export const UNREAD_COUNTED = 100;

export interface NewNotification {
  recipientUid: number;
  kind: string;
  category: string;
  actorUid: number | null;
  targetType: string | null;
  targetId: number | null;
  detail: Record<string, unknown>;
  mailPending: boolean;
  /** Set for aggregated kinds: a second event of the same key joins the first row. */
  groupKey: string | null;
}

export function createNotificationsRepository(db: Kysely<Database>) {
  return {
    /**
     * Stores one notification, or adds the actor to its group's row (see `addToGroup`). Answers the row's id.
     */
    async insert(n: NewNotification): Promise<number> {
      const actors = n.actorUid === null ? [] : [n.actorUid];
      if (n.groupKey !== null) return this.addToGroup({ ...n, groupKey: n.groupKey }, actors);
      const values = {
        recipient_uid: n.recipientUid,
        kind: n.kind,
        category: n.category,
        group_key: n.groupKey,
        actor_uids: sql<number[]>`${sql.val(actors)}::bigint[]`,
        actor_count: actors.length,
        target_type: n.targetType,
        target_id: n.targetId,
        detail: JSON.stringify(n.detail) as never,
        mail_pending: n.mailPending,
      };
      return (await db.insertInto('notifications').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    /**
     * Adds actors (distinct, newest first) to the group's row, creating it with them: they move
     * to the front of the names kept, each one not among those kept is counted, and the row is
     * unread again and moved to the top. One statement for any number of actors (a window of a
     * hot item's likes). Answers the row's id.
     */
    async addToGroup(
      n: Omit<NewNotification, 'actorUid'> & { groupKey: string },
      actorUids: number[],
    ): Promise<number> {
      const actors = sql`${sql.val(actorUids)}::bigint[]`;
      const row = await db
        .insertInto('notifications')
        .values({
          recipient_uid: n.recipientUid,
          kind: n.kind,
          category: n.category,
          group_key: n.groupKey,
          actor_uids: sql<number[]>`(${actors})[1:${sql.lit(ACTORS_KEPT)}]`,
          actor_count: actorUids.length,
          target_type: n.targetType,
          target_id: n.targetId,
          detail: JSON.stringify(n.detail) as never,
          mail_pending: n.mailPending,
        })
        .onConflict((oc) =>
          oc.columns(['recipient_uid', 'group_key']).doUpdateSet({
            actor_uids: sql`(SELECT array_agg(u ORDER BY first) FROM (
            SELECT u, min(o) AS first FROM unnest(${actors} || notifications.actor_uids) WITH ORDINALITY AS a(u, o) GROUP BY u) AS kept)[1:${sql.lit(ACTORS_KEPT)}]`,
            actor_count: sql`notifications.actor_count + (SELECT count(*)::int FROM unnest(${actors}) AS a(u) WHERE u <> ALL(notifications.actor_uids))`,
            is_read: false,
            created_at: sql`now()`,
            mail_pending: sql`notifications.mail_pending OR ${n.mailPending}`,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** One page of a member's notifications (of one tab), newest first; one row past the page says there is more. */
    async page(uid: number, category: string | undefined, after: KeysetPosition | null, limit: number) {
      let query = db
        .selectFrom('notifications')
        .select([
          'id',
          'kind',
          'is_read',
          'created_at',
          'actor_uids',
          'actor_count',
          'target_type',
          'target_id',
          'detail',
          microsOf('created_at').as('created_micros'),
        ])
        .where('recipient_uid', '=', uid);
      if (category) query = query.where('category', '=', category);
      if (after) query = query.where(olderThan('created_at', 'id', after));
      const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
      return rows.map((row) => ({ ...row, actor_uids: row.actor_uids.map(Number) }));
    },

    /**
     * How many are unread, counted up to UNREAD_COUNTED (the bell shows "99+"): each unread row
     * is a heap visit, so a member with thousands unread would make every page's count slow.
     */
    async unreadCount(uid: number): Promise<number> {
      const unread = db
        .selectFrom('notifications')
        .select('id')
        .where('recipient_uid', '=', uid)
        .where('is_read', '=', false)
        .limit(UNREAD_COUNTED);
      const row = await db
        .selectFrom(unread.as('u'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Marks read the member's own notifications among `ids` (or all); answers how many changed. */
    async markRead(uid: number, ids: number[] | 'all'): Promise<number> {
      let query = db
        .updateTable('notifications')
        .set({ is_read: true })
        .where('recipient_uid', '=', uid)
        .where('is_read', '=', false);
      if (ids !== 'all') query = query.where('id', 'in', ids);
      return Number((await query.executeTakeFirst()).numUpdatedRows);
    },

    /** Names and avatars of the actors shown. */
    actors(uids: number[]) {
      if (!uids.length) return Promise.resolve([]);
      return db
        .selectFrom('users')
        .select(['uid', 'username', 'user_nickname', 'avatar'])
        .where('uid', 'in', uids)
        .execute();
    },

    /** Who a notification goes to and in which language, and the address a digest goes to. */
    recipient(uid: number) {
      return db
        .selectFrom('users')
        .select(['uid', 'email', 'interface_language', 'roles'])
        .where('uid', '=', uid)
        .executeTakeFirst();
    },

    /** An upload's uploader and title (for its review's outcome), whatever its state. */
    async upload(
      type: 'video' | 'audio' | 'photo',
      id: number,
    ): Promise<{ uploaderUid: number; title: string } | undefined> {
      const row =
        type === 'video'
          ? await db
              .selectFrom('videos')
              .select(['uploader_uid', 'title'])
              .where('video_id', '=', id)
              .executeTakeFirst()
          : type === 'audio'
            ? await db
                .selectFrom('audio_tracks')
                .select(['uploader_uid', 'title'])
                .where('audio_id', '=', id)
                .executeTakeFirst()
            : await db
                .selectFrom('photos')
                .select(['uploader_uid', 'title'])
                .where('photo_id', '=', id)
                .executeTakeFirst();
      return row && { uploaderUid: row.uploader_uid, title: row.title };
    },

    /** Members with staff roles, for kinds every reviewer hears of. */
    async staffUids(): Promise<number[]> {
      const rows = await db
        .selectFrom('users')
        .select('uid')
        .where(sql<boolean>`roles && ARRAY['root', 'administrator']::text[]`)
        .execute();
      return rows.map((r) => r.uid);
    },

    settings(uid: number) {
      return db.selectFrom('notification_settings').select(['kind', 'channel']).where('uid', '=', uid).execute();
    },

    async channelOf(uid: number, kind: string): Promise<'site' | 'email' | 'off'> {
      const row = await db
        .selectFrom('notification_settings')
        .select('channel')
        .where('uid', '=', uid)
        .where('kind', '=', kind)
        .executeTakeFirst();
      return row?.channel ?? 'site';
    },

    async setChannel(uid: number, kind: string, channel: 'site' | 'email' | 'off'): Promise<void> {
      await db
        .insertInto('notification_settings')
        .values({ uid, kind, channel })
        .onConflict((oc) => oc.columns(['uid', 'kind']).doUpdateSet({ channel }))
        .execute();
    },

    /** Members with notifications waiting for an e-mail digest. */
    async waitingForMail(limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('notifications')
        .select('recipient_uid')
        .distinct()
        .where('mail_pending', '=', true)
        .limit(limit)
        .execute();
      return rows.map((r) => r.recipient_uid);
    },

    /**
     * Claims the member's digest for now when their last one is at least `intervalMs` old (or
     * there was none): true for exactly one caller across processes.
     */
    async claimDigest(uid: number, intervalMs: number): Promise<boolean> {
      const row = await db
        .insertInto('notification_digests')
        .values({ uid, sent_at: sql`now()` as never })
        .onConflict((oc) =>
          oc
            .column('uid')
            .doUpdateSet({ sent_at: sql`now()` as never })
            .where(
              'notification_digests.sent_at',
              '<=',
              sql<Date>`now() - ${intervalMs}::float8 * interval '1 millisecond'`,
            ),
        )
        .returning('uid')
        .executeTakeFirst();
      return !!row;
    },

    /** What a digest carries (unread, waiting), newest first, and takes them off the waiting list. */
    async takeMailPending(uid: number, limit: number) {
      return db.transaction().execute(async (trx) => {
        const rows = await trx
          .selectFrom('notifications')
          .select([
            'id',
            'kind',
            'is_read',
            'created_at',
            'actor_uids',
            'actor_count',
            'target_type',
            'target_id',
            'detail',
          ])
          .where('recipient_uid', '=', uid)
          .where('mail_pending', '=', true)
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .execute();
        await trx
          .updateTable('notifications')
          .set({ mail_pending: false })
          .where('recipient_uid', '=', uid)
          .where('mail_pending', '=', true)
          .execute();
        return rows
          .filter((r) => !r.is_read)
          .slice(0, limit)
          .map((row) => ({ ...row, actor_uids: row.actor_uids.map(Number) }));
      });
    },
  };
}
export type NotificationsRepository = ReturnType<typeof createNotificationsRepository>;
