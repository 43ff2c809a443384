import sanitizeHtml from 'sanitize-html';
import type { Repositories } from '../repositories/index.ts';
import type { CommentRow } from '../repositories/comments.repository.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import type { CommentVoteResponse, VideoComment } from '../../src/lib/api/contract.ts';
import { textBlocksOf } from './block-lists.ts';
import { matchBlockRegexes } from './block-regex.ts';
import { containsKeyword } from '../../src/lib/block-lists/text-blocks.ts';
import type { MediaTarget, MediaType } from '../../src/lib/api/constants.ts';

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
  if (!visibleText(clean).replace(/\s/g, '')) throw new DomainError('VALIDATION_FAILED', { issues: [{ path: 'text', message: 'must not be empty' }] });
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

/** A comment route "<id>.<floor>" names a floor of a target of the type the call names. */
const parseCommentRoute = (type: MediaType, route: string) => {
  const [id, floor] = route.split('.').map(Number);
  return { target: { type, id } satisfies MediaTarget, floor };
};

const toComment = (r: CommentRow): VideoComment => ({
  id: r.id, commentRoute: `${r.video_id}.${r.floor}`, videoId: r.video_id, uid: r.uid,
  userInfo: { username: r.username, userNickname: r.user_nickname, avatar: r.avatar }, emitTime: new Date(r.created_at).getTime(), text: r.text,
  isUpvote: r.vote === 1, isDownvote: r.vote === -1, upvoteCount: r.upvote_count, downvoteCount: r.downvote_count, commentIndex: r.floor,
});

export function createCommentService(repositories: Pick<Repositories, 'comments' | 'blockLists' | 'transaction'>) {
  const { comments, blockLists } = repositories;
  return {
    /** A new comment takes the target's next floor (an atomic increment of its counter). */
    async emit(uid: number, target: MediaTarget, html: string): Promise<VideoComment> {
      const text = sanitizeComment(html);
      const id = await repositories.transaction(async ({ comments: trx }) =>
        trx.insert({ video_id: target.id, target_type: target.type, floor: await trx.takeNextFloor(target), uid, text }));
      return toComment(await comments.byId(id, uid));
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
    async list(target: MediaTarget, viewerUid: number | null, page: { page: number; pageSize: number }) {
      const [rows, count, blocks] = await Promise.all([
        comments.pageOf(target, viewerUid, { limit: page.pageSize, offset: (page.page - 1) * page.pageSize }),
        comments.countOf(target, viewerUid),
        viewerUid === null ? null : textBlocksOf(blockLists, viewerUid),
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
      return { videoCommentCount: count, hiddenCommentCount: rows.length - shown.length, videoCommentList: shown.map(toComment) };
    },

    /**
     * Sets (1, -1) or clears (0) the viewer's vote. The comment row is locked for the change,
     * so concurrent votes and switches always leave the counts equal to the votes.
     */
    async vote(uid: number, target: MediaTarget, commentId: number, vote: 1 | -1 | 0, onlyClear?: 1 | -1): Promise<CommentVoteResponse> {
      return repositories.transaction(async ({ comments: trx }) => {
        const comment = await trx.lockLive(commentId, target);
        if (!comment) throw new DomainError('NOT_FOUND');
        const existing = await trx.voteOf(commentId, uid);
        // A cancel clears only the kind of vote it names.
        const next = onlyClear !== undefined ? (existing === onlyClear ? 0 : existing) : vote;
        let { upvote_count: up, downvote_count: down } = comment;
        if (existing === 1) up -= 1;
        if (existing === -1) down -= 1;
        if (next === 1) up += 1;
        if (next === -1) down += 1;
        if (next === 0) await trx.deleteVote(commentId, uid);
        else await trx.upsertVote(commentId, uid, next);
        if (next !== existing) await trx.setVoteCounts(commentId, up, down);
        return { success: true, upvoteCount: up, downvoteCount: down, isUpvote: next === 1, isDownvote: next === -1 };
      });
    },

    /** The author of a comment that is not deleted (who may delete it is the policy's decision). */
    async authorOf(type: MediaType, route: string): Promise<number> {
      const { target, floor } = parseCommentRoute(type, route);
      const author = await comments.authorOnFloor(target, floor);
      if (author === undefined) throw new NotFound();
      return author;
    },

    /** Soft delete, recording who. */
    async remove(type: MediaType, route: string, byUid: number): Promise<void> {
      const { target, floor } = parseCommentRoute(type, route);
      if (!(await comments.softDeleteOnFloor(target, floor, byUid))) throw new NotFound();
    },
  };
}
