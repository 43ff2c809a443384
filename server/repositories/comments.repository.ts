/** Comments under videos, audio tracks and photo posts, each on its floor, with the votes members give them, their threads and pins. */
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { CommentMention, Database } from '../db/schema.ts';
import type { CommentSort } from '../../src/lib/api/contracts/interaction.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import { notSentByBlockedOf, usersBlockedBy } from './block-lists.sql.ts';

/** A thread head's place in both orders: newest (floor) and hot (score, then floor). */
export interface CommentHeadKey {
  id: number;
  floor: number;
  score: number;
}

/** SQL: the two members have no block between them, either way. */
export function noBlockBetween(uidColumn: string, otherUid: number) {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM block_entries be WHERE be.type = 'block'
    AND ((be.uid = ${otherUid} AND be.target_uid = ${sql.ref(uidColumn)}) OR (be.uid = ${sql.ref(uidColumn)} AND be.target_uid = ${otherUid})))`;
}

export function createCommentsRepository(db: Kysely<Database>) {
  /** The comments on one video, track or photo post (deleted ones too: callers say which they want). */
  const commentsOn = (target: MediaTarget) =>
    db.selectFrom('comments as c').where('c.video_id', '=', target.id).where('c.target_type', '=', target.type);
  /** Comments with their authors and `viewerUid`'s vote on each (deleted ones too: callers say which they want). */
  function withAuthorAndVote(viewerUid: number | null) {
    return db
      .selectFrom('comments as c')
      .innerJoin('users as u', 'u.uid', 'c.uid')
      .leftJoin('comment_votes as mine', (join) =>
        join.onRef('mine.comment_id', '=', 'c.id').on('mine.uid', '=', viewerUid ?? -1),
      )
      .select([
        'c.id',
        'c.video_id',
        'c.floor',
        'c.uid',
        'c.text',
        'c.upvote_count',
        'c.downvote_count',
        'c.created_at',
        'c.parent_id',
        'c.mentions',
        'c.pinned',
        'c.deleted_at',
        'u.username',
        'u.user_nickname',
        'u.avatar',
        'mine.vote',
      ]);
  }
  /**
   * The ids of a target's shown thread heads but the pinned one, as `viewerUid`
   * sees them (not deleted, or deleted with a live reply; without the people they blocked), in
   * `order`: read from comments_heads_new or comments_heads_hot alone (migration 0037), whose
   * predicate these conditions repeat word for word so the planner can use them.
   */
  function headKeys(target: MediaTarget, viewerUid: number | null, sort: CommentSort) {
    let query = commentsOn(target)
      .select('c.id')
      .where(sql<SqlBool>`c.parent_id IS NULL AND NOT c.pinned AND (c.deleted_at IS NULL OR c.live_replies > 0)`);
    if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
    return { query, key: sort === 'hot' ? sql`(c.upvote_count - c.downvote_count), c.floor` : sql`c.floor` };
  }
  /** Live replies of threads, as `viewerUid` sees them. */
  function repliesOf(parentIds: readonly number[], viewerUid: number | null) {
    let query = withAuthorAndVote(viewerUid).where('c.parent_id', 'in', parentIds).where('c.deleted_at', 'is', null);
    if (viewerUid !== null) query = query.where(notSentByBlockedOf('c.uid', viewerUid));
    return query;
  }
  return {
    /** One comment not deleted, as `viewerUid` sees it. */
    byId(id: number, viewerUid: number | null) {
      return withAuthorAndVote(viewerUid)
        .where('c.id', '=', id)
        .where('c.deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
    },

    /**
     * Thread heads but the pinned one, with their authors and the viewer's votes, in the list's
     * order: `offset` rows in (a numbered page), or just past a page's edge (`after`: further
     * down the list; `before`: further up). A keyset walk reads only the index entries it answers;
     * an offset is skipped within the index. With `withPinned`, the pinned comment (if the viewer
     * sees it) leads. One statement: the ids are chosen in the index, then only they are joined.
     */
    async headsPage(
      target: MediaTarget,
      viewerUid: number | null,
      page: { sort: CommentSort; limit: number; withPinned?: boolean } & (
        | { offset: number }
        | { after: CommentHeadKey }
        | { before: CommentHeadKey }
      ),
    ) {
      const { query, key } = headKeys(target, viewerUid, page.sort);
      const edge = 'after' in page ? page.after : 'before' in page ? page.before : null;
      const value = edge && (page.sort === 'hot' ? sql`${edge.score}, ${edge.floor}` : sql`${edge.floor}`);
      const upward = 'before' in page;
      const direction = sql.raw(upward ? 'ASC' : 'DESC');
      let walk = query;
      if (value) walk = walk.where(sql<SqlBool>`(${key}) ${sql.raw(upward ? '>' : '<')} (${value})`);
      walk = walk
        .orderBy(
          page.sort === 'hot'
            ? sql`(c.upvote_count - c.downvote_count) ${direction}, c.floor ${direction}`
            : sql`c.floor ${direction}`,
        )
        .limit(page.limit)
        .offset('offset' in page ? page.offset : 0);
      let ids = sql`SELECT id FROM (${walk}) AS h`;
      if (page.withPinned) {
        let pinned = commentsOn(target).select('c.id').where('c.pinned', '=', true);
        if (viewerUid !== null) pinned = pinned.where(notSentByBlockedOf('c.uid', viewerUid));
        ids = sql`${ids} UNION ALL ${pinned}`;
      }
      const rows = await withAuthorAndVote(viewerUid).where(sql<SqlBool>`c.id IN (${ids})`).execute();
      const score = (r: (typeof rows)[number]) => r.upvote_count - r.downvote_count;
      return rows.sort(
        (a, b) =>
          Number(b.pinned) - Number(a.pinned) || (page.sort === 'hot' ? score(b) - score(a) : 0) || b.floor - a.floor,
      );
    },

    /**
     * How many threads of a target `viewerUid` sees (pages are counted from it): the count kept
     * by migration 0037's trigger, less the shown threads of the people the viewer blocked, found
     * through comments_author_heads (one probe per person blocked).
     */
    async countOf(target: MediaTarget, viewerUid: number | null): Promise<number> {
      const kept = sql<number>`coalesce((SELECT k.threads FROM comment_thread_counts k
        WHERE k.target_type = ${target.type} AND k.target_id = ${target.id}), 0)`;
      const hidden =
        viewerUid === null
          ? sql<number>`0`
          : sql<number>`(SELECT count(*) FROM comments c WHERE c.uid IN ${usersBlockedBy(viewerUid)}
              AND c.video_id = ${target.id} AND c.target_type = ${target.type}
              AND c.parent_id IS NULL AND (c.deleted_at IS NULL OR c.live_replies > 0))`;
      const { rows } = await sql<{ n: number }>`SELECT ${kept} - ${hidden} AS n`.execute(db);
      return Number(rows[0]!.n);
    },

    /**
     * The first `perThread` replies of each thread, oldest first, with each thread's reply count:
     * ONE query for a whole page of threads (a window over the threads), never one per thread.
     */
    async previewsOf(parentIds: readonly number[], viewerUid: number | null, perThread: number) {
      if (!parentIds.length) return [];
      const ranked = repliesOf(parentIds, viewerUid).select([
        sql<number>`row_number() OVER (PARTITION BY c.parent_id ORDER BY c.id)`.as('position'),
        sql<number>`count(*) OVER (PARTITION BY c.parent_id)`.as('reply_count'),
      ]);
      return db
        .selectFrom(ranked.as('t'))
        .selectAll()
        .where('t.position', '<=', perThread)
        .orderBy('t.parent_id')
        .orderBy('t.id')
        .execute();
    },

    /** A page of one thread, oldest reply first. */
    repliesPage(parentId: number, viewerUid: number | null, page: { limit: number; offset: number }) {
      return repliesOf([parentId], viewerUid).orderBy('c.id', 'asc').limit(page.limit).offset(page.offset).execute();
    },

    async replyCountOf(parentId: number, viewerUid: number | null): Promise<number> {
      const row = await db
        .selectFrom(repliesOf([parentId], viewerUid).as('t'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** A comment of a target (deleted or not) with its author's name: what a reply attaches to. */
    parentOn(target: MediaTarget, id: number) {
      return db
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.uid', 'c.uid')
        .select(['c.id', 'c.parent_id', 'c.uid', 'c.deleted_at', 'u.username'])
        .where('c.id', '=', id)
        .where('c.video_id', '=', target.id)
        .where('c.target_type', '=', target.type)
        .executeTakeFirst();
    },

    /** The members named (case-insensitively) among `names`, leaving out anyone with a block either way with `writerUid`. */
    mentionable(names: readonly string[], writerUid: number): Promise<CommentMention[]> {
      if (!names.length) return Promise.resolve([]);
      return db
        .selectFrom('users as u')
        .select(['u.uid', 'u.username'])
        .where(sql<SqlBool>`lower(u.username) IN (${sql.join(names.map((n) => n.toLowerCase()))})`)
        .where(noBlockBetween('u.uid', writerUid))
        .execute();
    },

    /**
     * Who the editor offers after "@" to `writerUid`: people they follow, and the authors in the
     * thread (or on the whole item), whose name starts with `prefix`; nobody with a block either way.
     */
    mentionCandidates(writerUid: number, target: MediaTarget, threadId: number | null, prefix: string, limit: number) {
      const inThread = commentsOn(target).select('c.uid').where('c.deleted_at', 'is', null);
      const authors =
        threadId === null
          ? inThread
          : inThread.where((eb) => eb.or([eb('c.id', '=', threadId), eb('c.parent_id', '=', threadId)]));
      const followed = db
        .selectFrom('follows as f')
        .select('f.followed_uid as uid')
        .where('f.follower_uid', '=', writerUid);
      let query = db
        .selectFrom('users as u')
        .select(['u.uid', 'u.username', 'u.user_nickname', 'u.avatar'])
        .where((eb) => eb.or([eb('u.uid', 'in', authors), eb('u.uid', 'in', followed)]))
        .where('u.uid', '<>', writerUid)
        .where(noBlockBetween('u.uid', writerUid));
      if (prefix)
        query = query.where(
          sql<SqlBool>`lower(u.username) LIKE ${`${prefix.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`}`,
        );
      return query.orderBy('u.username').limit(limit).execute();
    },

    /**
     * Increments the target's floor counter, answering the floor taken: a video's is on its row,
     * other targets' in comment_floors (created at the first comment).
     */
    async takeNextFloor(target: MediaTarget): Promise<number> {
      if (target.type === 'video') {
        const video = await db
          .updateTable('videos')
          .set((eb) => ({ comment_floor: eb('comment_floor', '+', 1) }))
          .where('video_id', '=', target.id)
          .returning('comment_floor')
          .executeTakeFirstOrThrow();
        return video.comment_floor;
      }
      const counter = await db
        .insertInto('comment_floors')
        .values({ target_type: target.type, target_id: target.id, floor: 1 })
        .onConflict((oc) =>
          oc.columns(['target_type', 'target_id']).doUpdateSet((eb) => ({ floor: eb('comment_floors.floor', '+', 1) })),
        )
        .returning('floor')
        .executeTakeFirstOrThrow();
      return counter.floor;
    },

    async insert(row: {
      video_id: number;
      target_type: MediaTarget['type'];
      floor: number;
      uid: number;
      text: string;
      parent_id: number | null;
      mentions: CommentMention[];
    }): Promise<number> {
      return (
        await db
          .insertInto('comments')
          .values({ ...row, mentions: JSON.stringify(row.mentions) })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },

    /** The uploader's pin: at most one per target (pinning one unpins the other), only on a live top-level comment. */
    async setPinned(target: MediaTarget, commentId: number, pinned: boolean): Promise<boolean> {
      const live = await db
        .selectFrom('comments')
        .select('id')
        .where('id', '=', commentId)
        .where('video_id', '=', target.id)
        .where('target_type', '=', target.type)
        .where('parent_id', 'is', null)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
      if (!live) return false;
      await db
        .updateTable('comments')
        .set({ pinned: false })
        .where('video_id', '=', target.id)
        .where('target_type', '=', target.type)
        .where('pinned', '=', true)
        .execute();
      if (pinned) await db.updateTable('comments').set({ pinned: true }).where('id', '=', commentId).execute();
      return true;
    },

    /** A comment not deleted, locked until the transaction ends; undefined when there is none. */
    lockLive(commentId: number, target: MediaTarget) {
      return db
        .selectFrom('comments')
        .select(['id', 'upvote_count', 'downvote_count'])
        .where('id', '=', commentId)
        .where('video_id', '=', target.id)
        .where('target_type', '=', target.type)
        .where('deleted_at', 'is', null)
        .forUpdate()
        .executeTakeFirst();
    },

    /** A member's vote on a comment: 1, -1, or 0 for none. */
    async voteOf(commentId: number, uid: number): Promise<-1 | 0 | 1> {
      return (
        (
          await db
            .selectFrom('comment_votes')
            .select('vote')
            .where('comment_id', '=', commentId)
            .where('uid', '=', uid)
            .executeTakeFirst()
        )?.vote ?? 0
      );
    },

    async deleteVote(commentId: number, uid: number): Promise<void> {
      await db.deleteFrom('comment_votes').where('comment_id', '=', commentId).where('uid', '=', uid).execute();
    },

    async upsertVote(commentId: number, uid: number, vote: -1 | 1): Promise<void> {
      await db
        .insertInto('comment_votes')
        .values({ comment_id: commentId, uid, vote })
        .onConflict((oc) => oc.columns(['comment_id', 'uid']).doUpdateSet({ vote }))
        .execute();
    },

    async setVoteCounts(commentId: number, upvotes: number, downvotes: number): Promise<void> {
      await db
        .updateTable('comments')
        .set({ upvote_count: upvotes, downvote_count: downvotes })
        .where('id', '=', commentId)
        .execute();
    },

    /** One comment, deleted or not, with its target and floor (a report names it by id). */
    byIdAnyState: (id: number) =>
      db
        .selectFrom('comments')
        .select(['id', 'video_id', 'target_type', 'floor', 'uid', 'text', 'deleted_at'])
        .where('id', '=', id)
        .executeTakeFirst(),

    /** The comments on the floors around `floor` of a target (deleted ones too, marked), in floor order: a reported comment's thread. */
    threadAround(target: MediaTarget, floor: number, span: number) {
      return db
        .selectFrom('comments as c')
        .innerJoin('users as u', 'u.uid', 'c.uid')
        .select(['c.id', 'c.floor', 'c.text', 'c.deleted_at', 'u.username'])
        .where('c.video_id', '=', target.id)
        .where('c.target_type', '=', target.type)
        .where('c.floor', '>=', floor - span)
        .where('c.floor', '<=', floor + span)
        .orderBy('c.floor')
        .execute();
    },

    /** The author of the comment on a target's floor, if it is not deleted. */
    async authorOnFloor(target: MediaTarget, floor: number): Promise<number | undefined> {
      return (
        await db
          .selectFrom('comments')
          .select('uid')
          .where('video_id', '=', target.id)
          .where('target_type', '=', target.type)
          .where('floor', '=', floor)
          .where('deleted_at', 'is', null)
          .executeTakeFirst()
      )?.uid;
    },

    /** Marks the comment on a target's floor deleted, by whom; answers whether one was (it was not deleted before). */
    async softDeleteOnFloor(target: MediaTarget, floor: number, byUid: number): Promise<boolean> {
      const result = await db
        .updateTable('comments')
        .set({ deleted_at: new Date(), deleted_by: byUid, pinned: false })
        .where('video_id', '=', target.id)
        .where('target_type', '=', target.type)
        .where('floor', '=', floor)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      return !!result.numUpdatedRows;
    },
  };
}
export type CommentsRepository = ReturnType<typeof createCommentsRepository>;
/** A comment as read, with its author and the reader's vote. */
export type CommentRow = Awaited<ReturnType<CommentsRepository['byId']>>;
