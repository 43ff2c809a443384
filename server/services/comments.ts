import sanitizeHtml from 'sanitize-html';
import type { Repositories } from '../repositories/index.ts';
import type { CommentHeadKey, CommentRow } from '../repositories/comments.repository.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import {
  THREAD_PREVIEW_REPLIES,
  type CommentSort,
  type CommentThread,
  type CommentVoteResponse,
  type VideoComment,
} from '../../src/lib/api/contracts/interaction.ts';
import type { MediaTarget, MediaType } from '../../src/lib/api/contracts/common.constants.ts';
import type { ConversationEvents } from './conversation-events.ts';
import type { RateLimiter } from './danmaku.ts';
import { resolveMentions, mentionCandidatesIn } from '../../src/lib/validation/mentions.ts';
import { textBlocksOf } from './block-lists.ts';
import { recordStaffAction } from './moderation-log.ts';
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
    allowedTags: ALLOWED_TAGS,
    allowedAttributes: {},
    disallowedTagsMode: 'discard',
    // No attribute survives, so no URL scheme may either; deep nesting only bloats the page.
    allowedSchemes: [],
    allowedSchemesAppliedToAttributes: [],
    allowProtocolRelative: false,
    nestingLimit: 12,
    nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'iframe', 'template'],
  }).trim();
  if (!visibleText(clean).replace(/\s/g, ''))
    throw new DomainError('VALIDATION_FAILED', { issues: [{ path: 'text', message: 'must not be empty' }] });
  return clean;
}

/**
 * What a reader sees of stored (already sanitised) comment HTML: the text, with paragraphs and
 * line breaks as line breaks, so block keywords and expressions look at what is shown.
 */
export function visibleText(html: string): string {
  const text = sanitizeHtml(html.replace(/<br\s*\/?>|<\/(p|div)>/gi, '\n'), { allowedTags: [], allowedAttributes: {} });
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** A comment route "<id>.<floor>" names a floor of a target of the type the call names. */
const parseCommentRoute = (type: MediaType, route: string) => {
  const [id, floor] = route.split('.').map(Number);
  return { target: { type, id } satisfies MediaTarget, floor };
};

/** A page's edge as the list answers it (the contract's cursor): "new.<floor>" or "hot.<score>.<floor>". */
const cursorOf = (sort: CommentSort, head: CommentRow) =>
  sort === 'hot' ? `hot.${head.upvote_count - head.downvote_count}.${head.floor}` : `new.${head.floor}`;
/** The edge a cursor names (the contract checked its form and that it is of the list's sort). */
const headKeyOf = (cursor: string): CommentHeadKey => {
  const parts = cursor.split('.');
  return { id: 0, floor: Number(parts[parts.length - 1]), score: parts.length === 3 ? Number(parts[1]) : 0 };
};

const toComment = (r: CommentRow): VideoComment => {
  const deleted = r.deleted_at !== null;
  return {
    id: r.id,
    commentRoute: `${r.video_id}.${r.floor}`,
    videoId: r.video_id,
    // A deleted comment kept as a thread's head shows neither who wrote it nor what.
    uid: deleted ? 0 : r.uid,
    userInfo: deleted
      ? { username: '', userNickname: null, avatar: '' }
      : { username: r.username, userNickname: r.user_nickname, avatar: r.avatar },
    emitTime: new Date(r.created_at).getTime(),
    text: deleted ? '' : r.text,
    isUpvote: r.vote === 1,
    isDownvote: r.vote === -1,
    upvoteCount: r.upvote_count,
    downvoteCount: r.downvote_count,
    commentIndex: r.floor,
    parentId: r.parent_id,
    isDeleted: deleted,
    isPinned: r.pinned,
    mentions: deleted ? [] : r.mentions,
  };
};

const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A reply to a reply starts with "@name" of the author answered (inside the first paragraph, if any). */
function addressed(html: string, username: string): string {
  if (visibleText(html).trimStart().toLowerCase().startsWith(`@${username.toLowerCase()}`)) return html;
  const at = `@${escapeText(username)} `;
  return /^<(p|div)>/.test(html) ? html.replace(/^<(p|div)>/, `$&${at}`) : `${at}${html}`;
}

/** The viewer's block keywords and expressions, as a filter over comment rows (their own always pass). */
async function blockFilterFor(blockLists: Repositories['blockLists'], viewerUid: number | null) {
  const blocks = viewerUid === null ? null : await textBlocksOf(blockLists, viewerUid);
  return async <R extends CommentRow>(rows: R[]): Promise<R[]> => {
    if (!blocks || !(blocks.keywords.length || blocks.regexes.length)) return rows;
    const texts = rows.map((r) => visibleText(r.text));
    const candidates = rows.flatMap((r, i) =>
      r.uid !== viewerUid && r.deleted_at === null && !containsKeyword(texts[i], blocks.keywords) ? [i] : [],
    );
    const regexHits = await matchBlockRegexes(
      blocks.regexes,
      candidates.map((i) => texts[i]),
    );
    const kept = new Set(candidates.filter((_, n) => !regexHits[n]));
    return rows.filter((r, i) => r.uid === viewerUid || r.deleted_at !== null || kept.has(i));
  };
}

type CommentRepositories = Pick<Repositories, 'comments' | 'blockLists' | 'moderationLog' | 'transaction'>;

export function createCommentService(
  repositories: CommentRepositories,
  events: ConversationEvents,
  rateLimits: RateLimiter,
) {
  const { comments, blockLists } = repositories;
  /** No block between the two, either way (events never cross one). */
  const unblocked = async (a: number, b: number) =>
    !(await blockLists.isBlockedBy(a, b)) && !(await blockLists.isBlockedBy(b, a));

  /** Tells the uploader, the author answered and the members mentioned; never the writer, never across a block. */
  async function announce(
    writerUid: number,
    target: MediaTarget & { uploaderUid: number },
    commentId: number,
    answeredUid: number | null,
    mentions: { uid: number }[],
  ) {
    const base = { actorUid: writerUid, commentId, mediaType: target.type, mediaId: target.id };
    if (answeredUid !== null && answeredUid !== writerUid && (await unblocked(answeredUid, writerUid)))
      await events.onReply({ ...base, recipientUid: answeredUid });
    if (answeredUid === null) {
      const uploader = target.uploaderUid;
      if (uploader !== writerUid && (await unblocked(uploader, writerUid)))
        await events.onComment({ ...base, recipientUid: uploader });
    }
    // Mentions were resolved without anyone blocked either way.
    for (const { uid } of mentions)
      if (uid !== writerUid && uid !== answeredUid) await events.onMention({ ...base, recipientUid: uid });
  }

  return {
    /**
     * A new comment takes the target's next floor (an atomic increment of its counter). With
     * `parentId` it answers that comment: a reply to a reply joins the same top-level comment and
     * starts with "@name". "@username" of a member without a block either way becomes a mention.
     * The writer's limit is counted here, once the target is known writable (the route's loader).
     */
    async emit(
      uid: number,
      target: MediaTarget & { uploaderUid: number },
      html: string,
      parentId?: number,
    ): Promise<VideoComment> {
      await rateLimits.hit('commentPerUser', uid);
      let text = sanitizeComment(html);
      let threadId: number | null = null;
      let answeredUid: number | null = null;
      if (parentId !== undefined) {
        const parent = await comments.parentOn(target, parentId);
        // A deleted comment cannot be answered (its thread's other replies still can).
        if (!parent || parent.deleted_at !== null) throw new NotFound();
        threadId = parent.parent_id ?? parent.id;
        answeredUid = parent.uid;
        if (parent.parent_id !== null) text = addressed(text, parent.username);
      }
      const said = visibleText(text);
      const known = await comments.mentionable([...new Set(mentionCandidatesIn(said).flat())], uid);
      const named = new Set(resolveMentions(said, new Set(known.map((m) => m.username.toLowerCase()))));
      const mentions = known
        .filter((m) => named.has(m.username.toLowerCase()))
        .map(({ uid: mentioned, username }) => ({ uid: mentioned, username }));
      const id = await repositories.transaction(async ({ comments: trx }) =>
        trx.insert({
          video_id: target.id,
          target_type: target.type,
          floor: await trx.takeNextFloor({ type: target.type, id: target.id }),
          uid,
          text,
          parent_id: threadId,
          mentions,
        }),
      );
      await announce(uid, target, id, answeredUid, mentions);
      return toComment(await comments.byId(id, uid));
    },

    /**
     * Top-level comments (pinned first, then hot or newest), each with its reply count and first
     * replies, with the viewer's own votes marked, without the people the viewer blocked, and
     * without the comments the viewer's block keywords or expressions match.
     *
     * Blocked people are left out in the query, so pages and the count skip them. Keywords and
     * expressions are matched on the page read (the expressions off the main thread, with a time
     * budget): page n always covers the same comments, and `hiddenCommentCount` says how many of
     * them (and of their first replies) were left out. The replies of a whole page come in one
     * query, however many threads the page holds.
     */
    async list(
      target: MediaTarget,
      viewerUid: number | null,
      page: { page: number; pageSize: number; sort: CommentSort; after?: string; before?: string },
    ) {
      const { sort, pageSize: size } = page;
      // One more row than the page asks, to know whether another page follows.
      const heads = async (): Promise<{ rows: CommentRow[]; more: boolean }> => {
        const cursor = page.page > 1 ? (page.after ?? page.before) : undefined;
        if (cursor !== undefined) {
          const edge = headKeyOf(cursor);
          if (page.after !== undefined) {
            const rows = await comments.headsPage(target, viewerUid, { sort, limit: size + 1, after: edge });
            return { rows: rows.slice(0, size), more: rows.length > size };
          }
          // Read upwards: the extra row is the first, and the page is the rows nearest the edge.
          const rows = await comments.headsPage(target, viewerUid, { sort, limit: size + 1, before: edge });
          return { rows: rows.slice(-size), more: true };
        }
        // A numbered page: the pinned comment leads page 1, so on every page the other heads
        // start one row earlier when there is one. Read from one row earlier, then cut.
        const from = (page.page - 1) * size;
        const read = await comments.headsPage(target, viewerUid, {
          sort,
          limit: size + 2,
          offset: Math.max(0, from - 1),
          withPinned: true,
        });
        const pinned = read[0]?.pinned ? read[0] : undefined;
        const rest = pinned ? read.slice(1) : read;
        const start = page.page === 1 || pinned ? 0 : 1;
        const take = page.page === 1 && pinned ? size - 1 : size;
        return {
          rows: [...(page.page === 1 && pinned ? [pinned] : []), ...rest.slice(start, start + take)],
          more: rest.length > start + take,
        };
      };
      const [picked, count, shownOf] = await Promise.all([
        heads(),
        comments.countOf(target, viewerUid),
        blockFilterFor(blockLists, viewerUid),
      ]);
      const rows = picked.rows;
      const previews = await comments.previewsOf(
        rows.map((r) => r.id),
        viewerUid,
        THREAD_PREVIEW_REPLIES,
      );
      const [shown, shownReplies] = await Promise.all([shownOf(rows), shownOf(previews)]);
      const threads: CommentThread[] = shown.map((r) => {
        const replies = previews.filter((p) => p.parent_id === r.id);
        return {
          ...toComment(r),
          replyCount: Number(replies[0]?.reply_count ?? 0),
          replies: shownReplies.filter((p) => p.parent_id === r.id).map(toComment),
        };
      });
      const hidden = rows.length - shown.length + previews.length - shownReplies.length;
      const unpinned = rows.filter((r) => !r.pinned);
      const first = unpinned[0];
      const last = unpinned[unpinned.length - 1];
      return {
        videoCommentCount: count,
        hiddenCommentCount: hidden,
        videoCommentList: threads,
        nextCursor: picked.more && last ? cursorOf(sort, last) : null,
        previousCursor: page.page > 1 && first ? cursorOf(sort, first) : null,
      };
    },

    /** A page of one thread (its head must be a top-level comment of the target), oldest first, under the same rules. */
    async replies(
      target: MediaTarget,
      viewerUid: number | null,
      parentId: number,
      page: { page: number; pageSize: number },
    ) {
      const head = await comments.parentOn(target, parentId);
      if (!head || head.parent_id !== null) throw new NotFound();
      const [rows, count, shownOf] = await Promise.all([
        comments.repliesPage(parentId, viewerUid, { limit: page.pageSize, offset: (page.page - 1) * page.pageSize }),
        comments.replyCountOf(parentId, viewerUid),
        blockFilterFor(blockLists, viewerUid),
      ]);
      const shown = await shownOf(rows);
      return { replyCount: count, hiddenCommentCount: rows.length - shown.length, replies: shown.map(toComment) };
    },

    /** People the editor offers after "@" (followed, or in the thread), at most 8. */
    async mentionCandidates(writerUid: number, target: MediaTarget, threadId: number | null, prefix: string) {
      const rows = await comments.mentionCandidates(writerUid, target, threadId, prefix.replace(/^@/, ''), 8);
      return rows.map((r) => ({ uid: r.uid, username: r.username, userNickname: r.user_nickname, avatar: r.avatar }));
    },

    /** The uploader's pin (who may is the policy's decision, by the target's uploader). */
    async pin(target: MediaTarget, commentId: number, pinned: boolean): Promise<void> {
      if (!(await repositories.transaction(({ comments: trx }) => trx.setPinned(target, commentId, pinned))))
        throw new NotFound();
    },

    /**
     * Sets (1, -1) or clears (0) the viewer's vote. The comment row is locked for the change,
     * so concurrent votes and switches always leave the counts equal to the votes.
     */
    async vote(
      uid: number,
      target: MediaTarget,
      commentId: number,
      vote: 1 | -1 | 0,
      onlyClear?: 1 | -1,
    ): Promise<CommentVoteResponse> {
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
      const authorUid = await comments.authorOnFloor(target, floor);
      if (!(await comments.softDeleteOnFloor(target, floor, byUid))) throw new NotFound();
      if (authorUid !== byUid) {
        await recordStaffAction(repositories, {
          actorUid: byUid,
          action: 'comment.delete',
          targetType: 'comment',
          targetId: target.id,
          details: { mediaType: type, floor, authorUid },
        });
      }
    },
  };
}
