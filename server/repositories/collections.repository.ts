/**
 * Collections and their videos. A video counts as available while it is approved; the others
 * (soft-deleted, back in review) keep their place and are counted apart. The page of videos
 * itself is read through the videos repository (videos.collectionPage), which owns the thumb's columns.
 */
import { sql, type Kysely, type Updateable } from 'kysely';
import type { CollectionsTable, Database } from '../db/schema.ts';

/** Which collections a summary list holds. */
export type CollectionSelection = { ownerUid: number; withPrivate: boolean } | { collectionIds: readonly number[] };

export function createCollectionsRepository(db: Kysely<Database>) {
  /** Collections with their counts and the video whose poster is the cover (the chosen one while available, else the first available). */
  function summaries() {
    return db.selectFrom('collections as c')
      .select(['c.collection_id', 'c.owner_uid', 'c.title', 'c.description', 'c.visibility', 'c.cover_video_id', 'c.created_at', 'c.updated_at'])
      .select(sql<string>`(SELECT count(*) FILTER (WHERE v.status = 'approved') FROM collection_videos cv JOIN videos v ON v.video_id = cv.video_id
        WHERE cv.collection_id = c.collection_id)`.as('available'))
      .select(sql<string>`(SELECT count(*) FILTER (WHERE v.status <> 'approved') FROM collection_videos cv JOIN videos v ON v.video_id = cv.video_id
        WHERE cv.collection_id = c.collection_id)`.as('unavailable'))
      .select(sql<number | null>`COALESCE(
        (SELECT cv.video_id FROM collection_videos cv JOIN videos v ON v.video_id = cv.video_id
          WHERE cv.collection_id = c.collection_id AND cv.video_id = c.cover_video_id AND v.status = 'approved'),
        (SELECT cv.video_id FROM collection_videos cv JOIN videos v ON v.video_id = cv.video_id
          WHERE cv.collection_id = c.collection_id AND v.status = 'approved' ORDER BY cv.position, cv.video_id LIMIT 1))`.as('cover_source_id'));
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
      return db.selectFrom('collections as c').innerJoin('users as u', 'u.uid', 'c.owner_uid')
        .select(['c.collection_id', 'c.owner_uid', 'c.visibility', 'u.username', 'u.user_nickname']).where('c.collection_id', '=', collectionId).executeTakeFirst();
    },

    /** The same, locking the row until the transaction ends (adding a video counts, then inserts). */
    findForUpdate(collectionId: number) {
      return db.selectFrom('collections').select(['collection_id', 'owner_uid', 'visibility']).where('collection_id', '=', collectionId).forUpdate().executeTakeFirst();
    },

    async countOwnedBy(uid: number): Promise<number> {
      const row = await db.selectFrom('collections').select((eb) => eb.fn.countAll<string>().as('n')).where('owner_uid', '=', uid).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insert(values: { ownerUid: number; title: string; description: string; visibility: 'public' | 'private' }): Promise<number> {
      const row = await db.insertInto('collections')
        .values({ owner_uid: values.ownerUid, title: values.title, description: values.description, visibility: values.visibility })
        .returning('collection_id').executeTakeFirstOrThrow();
      return Number(row.collection_id);
    },

    async update(collectionId: number, values: Updateable<Pick<CollectionsTable, 'title' | 'description' | 'visibility' | 'cover_video_id'>>): Promise<void> {
      await db.updateTable('collections').set({ ...values, updated_at: new Date() }).where('collection_id', '=', collectionId).execute();
    },

    async touch(collectionId: number): Promise<void> {
      await db.updateTable('collections').set({ updated_at: new Date() }).where('collection_id', '=', collectionId).execute();
    },

    async delete(collectionId: number): Promise<void> {
      await db.deleteFrom('collections').where('collection_id', '=', collectionId).execute();
    },

    /** Every video of the collection, available or not, in order. */
    async videoIds(collectionId: number): Promise<number[]> {
      const rows = await db.selectFrom('collection_videos').select('video_id').where('collection_id', '=', collectionId)
        .orderBy('position').orderBy('video_id').execute();
      return rows.map((row) => Number(row.video_id));
    },

    async countVideos(collectionId: number): Promise<number> {
      const row = await db.selectFrom('collection_videos').select((eb) => eb.fn.countAll<string>().as('n')).where('collection_id', '=', collectionId).executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async holds(collectionId: number, videoId: number): Promise<boolean> {
      return !!(await db.selectFrom('collection_videos').select('video_id').where('collection_id', '=', collectionId).where('video_id', '=', videoId).executeTakeFirst());
    },

    /** Adds the video after the last; false when it was there already. */
    async addVideo(collectionId: number, videoId: number): Promise<boolean> {
      const row = await db.insertInto('collection_videos')
        .columns(['collection_id', 'video_id', 'position'])
        .expression(db.selectNoFrom([
          sql<number>`${collectionId}::bigint`.as('collection_id'), sql<number>`${videoId}::bigint`.as('video_id'),
          sql<number>`COALESCE((SELECT max(position) FROM collection_videos WHERE collection_id = ${collectionId}), 0) + 1`.as('position'),
        ]))
        .onConflict((oc) => oc.doNothing()).returning('video_id').executeTakeFirst();
      return !!row;
    },

    /** Takes the video out; false when it was not there. */
    async removeVideo(collectionId: number, videoId: number): Promise<boolean> {
      const result = await db.deleteFrom('collection_videos').where('collection_id', '=', collectionId).where('video_id', '=', videoId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Numbers the collection's videos 1, 2, … in the order of `videoIds` (which holds every one of them). */
    async setOrder(collectionId: number, videoIds: readonly number[]): Promise<void> {
      if (!videoIds.length) return;
      await db.updateTable('collection_videos')
        .set({ position: sql<number>`array_position(ARRAY[${sql.join(videoIds.map((id) => sql`${id}::bigint`))}], video_id)` })
        .where('collection_id', '=', collectionId).execute();
    },

    /** Which of this member's collections hold the video (available or not). */
    async containing(ownerUid: number, videoId: number): Promise<number[]> {
      const rows = await db.selectFrom('collection_videos as cv').innerJoin('collections as c', 'c.collection_id', 'cv.collection_id')
        .select('c.collection_id').where('c.owner_uid', '=', ownerUid).where('cv.video_id', '=', videoId).orderBy('c.collection_id').execute();
      return rows.map((row) => Number(row.collection_id));
    },
  };
}
export type CollectionsRepository = ReturnType<typeof createCollectionsRepository>;
export type CollectionSummaryRow = Awaited<ReturnType<CollectionsRepository['list']>>[number];
