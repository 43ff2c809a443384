import sanitizeHtml from 'sanitize-html';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../app/errors.ts';
import type { CommentVoteResponse, VideoComment } from '../../src/lib/api/contract.ts';
import { textBlocksOf, usersBlockedBy } from './block-lists.ts';
import { matchBlockRegexes } from './block-regex.ts';
import { containsKeyword } from '../../src/lib/block-lists/text-blocks.ts';

/** Formatting the comment editor produces; nothing else survives, and no attribute at all. */
const ALLOWED_TAGS = ['b', 'strong', 'i', 'em', 'u', 's', 'del', 'strike', 'br', 'p', 'div'];

/**
 * Comment HTML from the browser is untrusted: keep the allow-listed tags without attributes,
 * drop every other tag (and the content of script/style), and refuse what has no text left.
 */
export function sanitizeComment(html: string): string {
  const clean = sanitizeHtml(html.normalize('NFC'), {
    allowedTags: ALLOWED_TAGS, allowedAttributes: {}, disallowedTagsMode: 'discard',
    // No attribute survives, so no URL scheme may either; deep nesting only bloats the page.
    allowedSchemes: [], allowedSchemesAppliedToAttributes: [], allowProtocolRelative: false, nestingLimit: 12,
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'template'],
  }).trim();
  if (!visibleText(clean).replace(/\s/g, '')) throw new AppError('VALIDATION_FAILED', { issues: [{ path: 'text', message: 'must not be empty' }] });
  return clean;
}

/**
 * What a reader sees of stored (already sanitised) comment HTML: the text, with paragraphs and
 * line breaks as line breaks, so block keywords and expressions look at what is shown.
 */
export function visibleText(html: string): string {
  const text = sanitizeHtml(html.replace(/<br\s*\/?>|<\/(p|div)>/gi, '\n'), { allowedTags: [], allowedAttributes: {} });
  return text.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
}

export const parseCommentRoute = (route: string) => {
  const [videoId, floor] = route.split('.').map(Number);
  return { videoId, floor };
};

export function createCommentService(db: Kysely<Database>) {
  function listQuery(viewerUid: number | null) {
    return db.selectFrom('comments as c').innerJoin('users as u', 'u.uid', 'c.uid')
      .leftJoin('comment_votes as mine', (join) => join.onRef('mine.comment_id', '=', 'c.id').on('mine.uid', '=', viewerUid ?? -1))
      .select(['c.id', 'c.video_id', 'c.floor', 'c.uid', 'c.text', 'c.upvote_count', 'c.downvote_count', 'c.created_at',
        'u.username', 'u.user_nickname', 'u.avatar', 'mine.vote'])
      .where('c.deleted_at', 'is', null);
  }
  type Row = Awaited<ReturnType<ReturnType<typeof listQuery>['execute']>>[number];
  const toComment = (r: Row): VideoComment => ({
    id: r.id, commentRoute: `${r.video_id}.${r.floor}`, videoId: r.video_id, uid: r.uid,
    userInfo: { username: r.username, userNickname: r.user_nickname, avatar: r.avatar }, emitTime: new Date(r.created_at).getTime(), text: r.text,
    isUpvote: r.vote === 1, isDownvote: r.vote === -1, upvoteCount: r.upvote_count, downvoteCount: r.downvote_count, commentIndex: r.floor,
  });

  return {
    /** A new comment takes the video's next floor (an atomic increment on the video row). */
    async emit(uid: number, videoId: number, html: string): Promise<VideoComment> {
      const text = sanitizeComment(html);
      const id = await db.transaction().execute(async (trx) => {
        const video = await trx.updateTable('videos').set((eb) => ({ comment_floor: eb('comment_floor', '+', 1) }))
          .where('video_id', '=', videoId).returning('comment_floor').executeTakeFirstOrThrow();
        const row = await trx.insertInto('comments').values({ video_id: videoId, floor: video.comment_floor, uid, text }).returning('id').executeTakeFirstOrThrow();
        return row.id;
      });
      return toComment(await listQuery(uid).where('c.id', '=', id).executeTakeFirstOrThrow());
    },

    /**
     * Newest first, with the viewer's own votes marked, without the people the viewer blocked, and
     * without the comments the viewer's block keywords or expressions match.
     *
     * Blocked people are left out in the query, so pages and the count skip them. Keywords and
     * expressions are matched on the page read (the expressions off the main thread, with a time
     * budget): page n always covers the same floors, and `hiddenCommentCount` says how many of
     * them were left out, as a page that reads "3 comments hidden by your block list" does.
     * `videoCommentCount` still counts them, so the number of pages never changes under a
     * reader's feet and no request has to match the whole thread.
     */
    async list(videoId: number, viewerUid: number | null, page: { page: number; pageSize: number }) {
      const notBlocked = sql<SqlBool>`c.uid NOT IN ${usersBlockedBy(viewerUid ?? -1)}`;
      const [rows, count, blocks] = await Promise.all([
        listQuery(viewerUid).where('c.video_id', '=', videoId).where(notBlocked).orderBy('c.floor', 'desc')
          .limit(page.pageSize).offset((page.page - 1) * page.pageSize).execute(),
        db.selectFrom('comments as c').select((eb) => eb.fn.countAll<number>().as('n')).where('c.video_id', '=', videoId).where('c.deleted_at', 'is', null)
          .where(notBlocked).executeTakeFirstOrThrow(),
        viewerUid === null ? null : textBlocksOf(db, viewerUid),
      ]);
      let shown = rows;
      if (blocks && (blocks.keywords.length || blocks.regexes.length)) {
        const texts = rows.map((r) => visibleText(r.text));
        // The viewer's own comments always show: they know what they wrote.
        const candidates = rows.flatMap((r, i) => (r.uid !== viewerUid && !containsKeyword(texts[i], blocks.keywords) ? [i] : []));
        const regexHits = await matchBlockRegexes(blocks.regexes, candidates.map((i) => texts[i]));
        const kept = new Set(candidates.filter((_, n) => !regexHits[n]));
        shown = rows.filter((r, i) => r.uid === viewerUid || kept.has(i));
      }
      return { videoCommentCount: Number(count.n), hiddenCommentCount: rows.length - shown.length, videoCommentList: shown.map(toComment) };
    },

    /**
     * Sets (1, -1) or clears (0) the viewer's vote. The comment row is locked for the change,
     * so concurrent votes and switches always leave the counts equal to the votes.
     */
    async vote(uid: number, videoId: number, commentId: number, vote: 1 | -1 | 0, onlyClear?: 1 | -1): Promise<CommentVoteResponse> {
      return db.transaction().execute(async (trx) => {
        const comment = await trx.selectFrom('comments').select(['id', 'upvote_count', 'downvote_count']).where('id', '=', commentId)
          .where('video_id', '=', videoId).where('deleted_at', 'is', null).forUpdate().executeTakeFirst();
        if (!comment) throw new AppError('NOT_FOUND');
        const existing = (await trx.selectFrom('comment_votes').select('vote').where('comment_id', '=', commentId).where('uid', '=', uid).executeTakeFirst())?.vote ?? 0;
        // A cancel clears only the kind of vote it names.
        const next = onlyClear !== undefined ? (existing === onlyClear ? 0 : existing) : vote;
        let { upvote_count: up, downvote_count: down } = comment;
        if (existing === 1) up -= 1;
        if (existing === -1) down -= 1;
        if (next === 1) up += 1;
        if (next === -1) down += 1;
        if (next === 0) await trx.deleteFrom('comment_votes').where('comment_id', '=', commentId).where('uid', '=', uid).execute();
        else {
          await trx.insertInto('comment_votes').values({ comment_id: commentId, uid, vote: next })
            .onConflict((oc) => oc.columns(['comment_id', 'uid']).doUpdateSet({ vote: next })).execute();
        }
        if (next !== existing) await trx.updateTable('comments').set({ upvote_count: up, downvote_count: down }).where('id', '=', commentId).execute();
        return { success: true, upvoteCount: up, downvoteCount: down, isUpvote: next === 1, isDownvote: next === -1 };
      });
    },

    /** Soft delete, recording who; `asStaff` may delete anyone's, otherwise only one's own. */
    async remove(viewerUid: number, route: string, asStaff: boolean): Promise<void> {
      const { videoId, floor } = parseCommentRoute(route);
      const comment = await db.selectFrom('comments').select(['id', 'uid']).where('video_id', '=', videoId).where('floor', '=', floor)
        .where('deleted_at', 'is', null).executeTakeFirst();
      if (!comment) throw new AppError('NOT_FOUND');
      if (!asStaff && comment.uid !== viewerUid) throw new AppError('FORBIDDEN');
      await db.updateTable('comments').set({ deleted_at: new Date(), deleted_by: viewerUid }).where('id', '=', comment.id).execute();
    },
  };
}
