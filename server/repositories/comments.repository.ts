/** Comments under videos, audio tracks and photo posts, each on its floor, with the votes members give them. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { MediaTarget } from '../../src/lib/api/constants.ts';
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

    /** A page of a target's comments, newest floor first, as `viewerUid` sees them (without the people they blocked). */
    pageOf(target: MediaTarget, viewerUid: number | null, page: { limit: number; offset: number }) {
      let query = withAuthorAndVote(viewerUid).where('c.video_id', '=', target.id).where('c.target_type', '=', target.type);
      if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
      return query.orderBy('c.floor', 'desc').limit(page.limit).offset(page.offset).execute();
    },

    /** How many comments of a target `viewerUid` may see (without the people they blocked). */
    async countOf(target: MediaTarget, viewerUid: number | null): Promise<number> {
      let query = db.selectFrom('comments as c').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('c.video_id', '=', target.id).where('c.target_type', '=', target.type).where('c.deleted_at', 'is', null);
      if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
      return Number((await query.executeTakeFirstOrThrow()).n);
    },

    /**
     * Increments the target's floor counter, answering the floor taken: a video's is on its row,
     * other targets' in comment_floors (created at the first comment).
     */
    async takeNextFloor(target: MediaTarget): Promise<number> {
      if (target.type === 'video') {
        const video = await db.updateTable('videos').set((eb) => ({ comment_floor: eb('comment_floor', '+', 1) }))
          .where('video_id', '=', target.id).returning('comment_floor').executeTakeFirstOrThrow();
        return video.comment_floor;
      }
      const counter = await db.insertInto('comment_floors').values({ target_type: target.type, target_id: target.id, floor: 1 })
        .onConflict((oc) => oc.columns(['target_type', 'target_id']).doUpdateSet((eb) => ({ floor: eb('comment_floors.floor', '+', 1) })))
        .returning('floor').executeTakeFirstOrThrow();
      return counter.floor;
    },

    async insert(row: { video_id: number; target_type: MediaTarget['type']; floor: number; uid: number; text: string }): Promise<number> {
      return (await db.insertInto('comments').values(row).returning('id').executeTakeFirstOrThrow()).id;
    },

    /** A comment not deleted, locked until the transaction ends; undefined when there is none. */
    lockLive(commentId: number, target: MediaTarget) {
      return db.selectFrom('comments').select(['id', 'upvote_count', 'downvote_count']).where('id', '=', commentId)
        .where('video_id', '=', target.id).where('target_type', '=', target.type).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
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

    /** The author of the comment on a target's floor, if it is not deleted. */
    async authorOnFloor(target: MediaTarget, floor: number): Promise<number | undefined> {
      return (await db.selectFrom('comments').select('uid').where('video_id', '=', target.id).where('target_type', '=', target.type).where('floor', '=', floor)
        .where('deleted_at', 'is', null).executeTakeFirst())?.uid;
    },

    /** Marks the comment on a target's floor deleted, by whom; answers whether one was (it was not deleted before). */
    async softDeleteOnFloor(target: MediaTarget, floor: number, byUid: number): Promise<boolean> {
      const result = await db.updateTable('comments').set({ deleted_at: new Date(), deleted_by: byUid })
        .where('video_id', '=', target.id).where('target_type', '=', target.type)
        .where('floor', '=', floor).where('deleted_at', 'is', null).executeTakeFirst();
      return !!result.numUpdatedRows;
    },
  };
}
export type CommentsRepository = ReturnType<typeof createCommentsRepository>;
/** A comment as read, with its author and the reader's vote. */
export type CommentRow = Awaited<ReturnType<CommentsRepository['byId']>>;
