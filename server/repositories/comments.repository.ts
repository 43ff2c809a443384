/** Comments under videos, each on its floor, with the votes members give them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { notSentByBlockedOf } from './block-lists.sql.ts';

export function createCommentsRepository(db: Kysely<Database>) {
  /** Comments not deleted, with their authors and `viewerUid`'s vote on each. */
  function withAuthorAndVote(viewerUid: number | null) {
    return db.selectFrom('comments as c').innerJoin('users as u', 'u.uid', 'c.uid')
      .leftJoin('comment_votes as mine', (join) => join.onRef('mine.comment_id', '=', 'c.id').on('mine.uid', '=', viewerUid ?? -1))
      .select(['c.id', 'c.video_id', 'c.floor', 'c.uid', 'c.text', 'c.upvote_count', 'c.downvote_count', 'c.created_at',
        'u.username', 'u.user_nickname', 'u.avatar', 'mine.vote'])
      .where('c.deleted_at', 'is', null);
  }
  return {
    /** One comment not deleted, as `viewerUid` sees it. */
    byId(id: number, viewerUid: number | null) {
      return withAuthorAndVote(viewerUid).where('c.id', '=', id).executeTakeFirstOrThrow();
    },

    /** A page of a video's comments, newest floor first, as `viewerUid` sees them (without the people they blocked). */
    pageOfVideo(videoId: number, viewerUid: number | null, page: { limit: number; offset: number }) {
      let query = withAuthorAndVote(viewerUid).where('c.video_id', '=', videoId);
      if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
      return query.orderBy('c.floor', 'desc').limit(page.limit).offset(page.offset).execute();
    },

    /** How many comments of a video `viewerUid` may see (without the people they blocked). */
    async countOfVideo(videoId: number, viewerUid: number | null): Promise<number> {
      let query = db.selectFrom('comments as c').select((eb) => eb.fn.countAll<number>().as('n')).where('c.video_id', '=', videoId).where('c.deleted_at', 'is', null);
      if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    /** Increments the video's floor counter, answering the floor taken. */
    async takeNextFloor(videoId: number): Promise<number> {
      const video = await db.updateTable('videos').set((eb) => ({ comment_floor: eb('comment_floor', '+', 1) }))
        .where('video_id', '=', videoId).returning('comment_floor').executeTakeFirstOrThrow();
      return video.comment_floor;
    },

    async insert(row: { video_id: number; floor: number; uid: number; text: string }): Promise<number> {
      return (await db.insertInto('comments').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },

    /** A comment not deleted, locked until the transaction ends; undefined when there is none. */
    lockLive(commentId: number, videoId: number) {
      return db.selectFrom('comments').select(['id', 'upvote_count', 'downvote_count']).where('id', '=', commentId)
        .where('video_id', '=', videoId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
    },

    /** A member's vote on a comment: 1, -1, or 0 for none. */
    async voteOf(commentId: number, uid: number): Promise<-1 | 0 | 1> {
      return (await db.selectFrom('comment_votes').select('vote').where('comment_id', '=', commentId).where('uid', '=', uid).executeTakeFirst())?.vote ?? 0;
    },

    async deleteVote(commentId: number, uid: number): Promise<void> {
      await db.deleteFrom('comment_votes').where('comment_id', '=', commentId).where('uid', '=', uid).execute();
    },

    async upsertVote(commentId: number, uid: number, vote: -1 | 1): Promise<void> {
      await db.insertInto('comment_votes').values({ comment_id: commentId, uid, vote })
        .onConflict((oc) => oc.columns(['comment_id', 'uid']).doUpdateSet({ vote })).execute();
    },

    async setVoteCounts(commentId: number, upvotes: number, downvotes: number): Promise<void> {
      await db.updateTable('comments').set({ upvote_count: upvotes, downvote_count: downvotes }).where('id', '=', commentId).execute();
    },

    /** The author of the comment on a video's floor, if it is not deleted. */
    async authorOnFloor(videoId: number, floor: number): Promise<number | undefined> {
      return (await db.selectFrom('comments').select('uid').where('video_id', '=', videoId).where('floor', '=', floor)
        .where('deleted_at', 'is', null).executeTakeFirst())?.uid;
    },

    /** Marks the comment on a video's floor deleted, by whom; answers whether one was (it was not deleted before). */
    async softDeleteOnFloor(videoId: number, floor: number, byUid: number): Promise<boolean> {
      const result = await db.updateTable('comments').set({ deleted_at: new Date(), deleted_by: byUid }).where('video_id', '=', videoId)
        .where('floor', '=', floor).where('deleted_at', 'is', null).executeTakeFirst();
      return !!result.numUpdatedRows;
    },
  };
}
export type CommentsRepository = ReturnType<typeof createCommentsRepository>;
/** A comment as read, with its author and the reader's vote. */
export type CommentRow = Awaited<ReturnType<CommentsRepository['byId']>>;
