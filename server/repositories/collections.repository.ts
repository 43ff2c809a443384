/**
 * Collections and their items: videos, audio tracks and photo posts (a target type and id, 0022).
 * An item counts as available while it is approved; the others (soft-deleted, back in review)
 * keep their place and are counted apart. The thumbs of a page's items are read through each
 * kind's repository, which owns its thumb's columns.
 */
import { sql, type Kysely, type RawBuilder, type SqlBool, type Updateable } from 'kysely';
import { announceForgotten } from '../events/cache-invalidation.ts';
import type { RepositoryCaches } from './caches.ts';
import type { CollectionsTable, Database, MediaTargetType } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';

/** SQL over `collection_videos as cv`: the item's target is approved. */
const AVAILABLE: RawBuilder<SqlBool> = sql<SqlBool>`(CASE cv.target_type
  WHEN 'video' THEN EXISTS (SELECT 1 FROM videos v WHERE v.video_id = cv.video_id AND v.status = 'approved')
  WHEN 'audio' THEN EXISTS (SELECT 1 FROM audio_tracks a WHERE a.audio_id = cv.video_id AND a.status = 'approved')
  ELSE EXISTS (SELECT 1 FROM photos p WHERE p.photo_id = cv.video_id AND p.status = 'approved') END)`;
/** An item's key in a list of a collection's items ("video:12"), for ordering by one array. */
const keyOf = (target: MediaTarget) => `${target.type}:${target.id}`;

/** Which collections a summary list holds. */
export type CollectionSelection = { ownerUid: number; withPrivate: boolean } | { collectionIds: readonly number[] };

export function createCollectionsRepository(db: Kysely<Database>, caches: Pick<RepositoryCaches, 'notices'>) {
  /**
   * Collections with their counts and the item whose picture is the cover: the chosen video while
   * available, else the first available item of any kind ("video:12", "audio:3", or null).
   */
  function summaries() {
    return db
      .selectFrom('collections as c')
      .select([
        'c.collection_id',
        'c.owner_uid',
        'c.title',
        'c.description',
        'c.visibility',
        'c.cover_video_id',
        'c.created_at',
        'c.updated_at',
      ])
      .select(
        sql<string>`(SELECT count(*) FILTER (WHERE ${AVAILABLE}) FROM collection_videos cv WHERE cv.collection_id = c.collection_id)`.as(
          'available',
        ),
      )
      .select(
        sql<string>`(SELECT count(*) FILTER (WHERE NOT ${AVAILABLE}) FROM collection_videos cv WHERE cv.collection_id = c.collection_id)`.as(
          'unavailable',
        ),
      )
      .select(
        sql<string | null>`COALESCE(
        (SELECT 'video:' || cv.video_id FROM collection_videos cv
          WHERE cv.collection_id = c.collection_id AND cv.target_type = 'video' AND cv.video_id = c.cover_video_id AND ${AVAILABLE}),
        (SELECT cv.target_type || ':' || cv.video_id FROM collection_videos cv
          WHERE cv.collection_id = c.collection_id AND ${AVAILABLE} ORDER BY cv.position, cv.target_type, cv.video_id LIMIT 1))`.as(
          'cover_source',
        ),
      );
  }

  return {
    /** The collections selected, newest first. */
    list(selection: CollectionSelection) {
      let query = summaries();
      if ('collectionIds' in selection) {
        if (!selection.collectionIds.length) return Promise.resolve([]);
        query = query.where('c.collection_id', 'in', [...selection.collectionIds]);
      } else {
        query = query.where('c.owner_uid', '=', selection.ownerUid);
        if (!selection.withPrivate) query = query.where('c.visibility', '=', 'public');
      }
      return query.orderBy('c.created_at', 'desc').orderBy('c.collection_id', 'desc').execute();
    },

    /** Owner (with their names) and visibility of a collection (read before anything is shown or changed). */
    find(collectionId: number) {
      return db
        .selectFrom('collections as c')
        .innerJoin('users as u', 'u.uid', 'c.owner_uid')
        .select(['c.collection_id', 'c.owner_uid', 'c.visibility', 'u.username', 'u.user_nickname'])
        .where('c.collection_id', '=', collectionId)
        .executeTakeFirst();
    },

    /** The same, locking the row until the transaction ends (adding a video counts, then inserts). */
    findForUpdate(collectionId: number) {
      return db
        .selectFrom('collections')
        .select(['collection_id', 'owner_uid', 'visibility'])
        .where('collection_id', '=', collectionId)
        .forUpdate()
        .executeTakeFirst();
    },

    async countOwnedBy(uid: number): Promise<number> {
      const row = await db
        .selectFrom('collections')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('owner_uid', '=', uid)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insert(values: {
      ownerUid: number;
      title: string;
      description: string;
      visibility: 'public' | 'private';
    }): Promise<number> {
      const row = await db
        .insertInto('collections')
        .values({
          owner_uid: values.ownerUid,
          title: values.title,
          description: values.description,
          visibility: values.visibility,
        })
        .returning('collection_id')
        .executeTakeFirstOrThrow();
      return Number(row.collection_id);
    },

    /** A collection's page is public or private: a change is announced so no guest keeps the old one (server/site/page-cache.ts). */
    async update(
      collectionId: number,
      values: Updateable<Pick<CollectionsTable, 'title' | 'description' | 'visibility' | 'cover_video_id'>>,
    ): Promise<void> {
      await db
        .updateTable('collections')
        .set({ ...values, updated_at: new Date() })
        .where('collection_id', '=', collectionId)
        .execute();
      announceForgotten(caches.notices, { cache: 'pages' });
    },

    async touch(collectionId: number): Promise<void> {
      await db
        .updateTable('collections')
        .set({ updated_at: new Date() })
        .where('collection_id', '=', collectionId)
        .execute();
      announceForgotten(caches.notices, { cache: 'pages' });
    },

    async delete(collectionId: number): Promise<void> {
      await db.deleteFrom('collections').where('collection_id', '=', collectionId).execute();
      announceForgotten(caches.notices, { cache: 'pages' });
    },

    /** Every item of the collection, available or not, in order. */
    async items(collectionId: number): Promise<MediaTarget[]> {
      const rows = await db
        .selectFrom('collection_videos')
        .select(['target_type', 'video_id'])
        .where('collection_id', '=', collectionId)
        .orderBy('position')
        .orderBy('target_type')
        .orderBy('video_id')
        .execute();
      return rows.map((row) => ({ type: row.target_type, id: Number(row.video_id) }));
    },

    /** One page of the collection's available items, in order. */
    async availablePage(collectionId: number, window: { page: number; pageSize: number }): Promise<MediaTarget[]> {
      const rows = await db
        .selectFrom('collection_videos as cv')
        .select(['cv.target_type', 'cv.video_id'])
        .where('cv.collection_id', '=', collectionId)
        .where(AVAILABLE)
        .orderBy('cv.position')
        .orderBy('cv.target_type')
        .orderBy('cv.video_id')
        .limit(window.pageSize)
        .offset((window.page - 1) * window.pageSize)
        .execute();
      return rows.map((row) => ({ type: row.target_type, id: Number(row.video_id) }));
    },

    async countVideos(collectionId: number): Promise<number> {
      const row = await db
        .selectFrom('collection_videos')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('collection_id', '=', collectionId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async holds(collectionId: number, target: MediaTarget): Promise<boolean> {
      return !!(await db
        .selectFrom('collection_videos')
        .select('video_id')
        .where('collection_id', '=', collectionId)
        .where('target_type', '=', target.type)
        .where('video_id', '=', target.id)
        .executeTakeFirst());
    },

    /** Adds the item after the last; false when it was there already. */
    async addItem(collectionId: number, target: MediaTarget): Promise<boolean> {
      const row = await db
        .insertInto('collection_videos')
        .columns(['collection_id', 'target_type', 'video_id', 'position'])
        .expression(
          db.selectNoFrom([
            sql<number>`${collectionId}::bigint`.as('collection_id'),
            sql<MediaTargetType>`${target.type}::text`.as('target_type'),
            sql<number>`${target.id}::bigint`.as('video_id'),
            sql<number>`COALESCE((SELECT max(position) FROM collection_videos WHERE collection_id = ${collectionId}), 0) + 1`.as(
              'position',
            ),
          ]),
        )
        .onConflict((oc) => oc.doNothing())
        .returning('video_id')
        .executeTakeFirst();
      return !!row;
    },

    /** Takes the item out; false when it was not there. */
    async removeItem(collectionId: number, target: MediaTarget): Promise<boolean> {
      const result = await db
        .deleteFrom('collection_videos')
        .where('collection_id', '=', collectionId)
        .where('target_type', '=', target.type)
        .where('video_id', '=', target.id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Numbers the collection's items 1, 2, … in the order of `items` (which holds every one of them). */
    async setOrder(collectionId: number, items: readonly MediaTarget[]): Promise<void> {
      if (!items.length) return;
      await db
        .updateTable('collection_videos')
        .set({
          position: sql<number>`array_position(ARRAY[${sql.join(items.map((item) => sql`${keyOf(item)}::text`))}], target_type || ':' || video_id)`,
        })
        .where('collection_id', '=', collectionId)
        .execute();
    },

    /** Which of this member's collections hold the item (available or not). */
    async containing(ownerUid: number, target: MediaTarget): Promise<number[]> {
      const rows = await db
        .selectFrom('collection_videos as cv')
        .innerJoin('collections as c', 'c.collection_id', 'cv.collection_id')
        .select('c.collection_id')
        .where('c.owner_uid', '=', ownerUid)
        .where('cv.target_type', '=', target.type)
        .where('cv.video_id', '=', target.id)
        .orderBy('c.collection_id')
        .execute();
      return rows.map((row) => Number(row.collection_id));
    },
  };
}
export type CollectionsRepository = ReturnType<typeof createCollectionsRepository>;
export type CollectionSummaryRow = Awaited<ReturnType<CollectionsRepository['list']>>[number];
