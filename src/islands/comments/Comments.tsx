import { createElement, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  deleteComment,
  deleteCommentAsUploader,
  emitComment,
  getComments,
  getMentionCandidates,
  getReplies,
  pinComment,
  voteComment,
} from '../../lib/api/calls/interaction.ts';
import { HttpError } from '../../lib/api/http.ts';
import type { ApiErrorBody } from '../../lib/api/errors.ts';
import type { CommentSort, CommentThread, VideoComment } from '../../lib/api/contracts/interaction.ts';
import type { MediaType } from '../../lib/api/contracts/common.constants.ts';
import { splitMentions } from '../../lib/validation/mentions.ts';
import { can } from '../../lib/policy/policy.ts';
import { showToast } from '../../lib/stores/toast.ts';
import { toSafeTree, type SafeNode } from '../../lib/comments/comment-html.ts';
import { LOCALE_INFO, localizePath, type Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import CommentEditor from './CommentEditor.tsx';
import CommentAuthor from './UserCard.tsx';
import LazyReportDialog from '../report/LazyReportDialog.tsx';
import type { ReportTarget } from '../report/ReportDialog.tsx';
import './comments.css';

const PAGE_SIZE = 20;

/**
 * The server's comment HTML, shown through the allow-list walk (never as raw innerHTML); the
 * "@name" of each member the server resolved as mentioned becomes a link to them.
 */
function CommentBody({ html, mentions, locale }: { html: string; mentions: VideoComment['mentions']; locale: Locale }) {
  const nodes = useMemo(
    () => (typeof DOMParser === 'undefined' ? [] : toSafeTree(new DOMParser().parseFromString(html, 'text/html').body)),
    [html],
  );
  const text = (value: string, key: number): ReactNode => {
    const pieces = splitMentions(value, mentions);
    return pieces.length === 1 && typeof pieces[0] === 'string' ? (
      value
    ) : (
      <span key={key}>
        {pieces.map((p, i) =>
          typeof p === 'string' ? (
            p
          ) : (
            <a key={i} className="comment-mention" href={localizePath(`/user/${p.uid}`, locale)} data-mention={p.uid}>
              {p.text}
            </a>
          ),
        )}
      </span>
    );
  };
  const render = (list: SafeNode[]): ReactNode[] =>
    list.map((n, i) =>
      typeof n === 'string'
        ? text(n, i)
        : createElement(n.tag, { key: i }, n.tag === 'br' ? undefined : render(n.children)),
    );
  return (
    <div className="comment-text" data-comment-text>
      {render(nodes)}
    </div>
  );
}

function relativeTime(ms: number, locale: Locale): string {
  const seconds = Math.round((ms - Date.now()) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [
    ['second', 60],
    ['minute', 60],
    ['hour', 24],
    ['day', 30],
    ['month', 12],
    ['year', Infinity],
  ];
  let value = seconds;
  const format = new Intl.RelativeTimeFormat(LOCALE_INFO[locale].htmlLang, { numeric: 'auto' });
  for (const [unit, size] of steps) {
    if (Math.abs(value) < size) return format.format(value, unit);
    value = Math.round(value / size);
  }
  return '';
}

/** The server's message (already in the page's language), or the comment-specific one for over-long text. */
function errorMessage(error: unknown, t: (key: string) => string): string {
  if (error instanceof HttpError) {
    const body = error.body as Partial<ApiErrorBody> | undefined;
    if (body?.code === 'VALIDATION_FAILED' && body.issues?.some((i) => i.path === 'text')) return t('comments.tooLong');
    if (body?.message) return body.message;
  }
  return t('api.internal');
}

const REPLIES_PAGE_SIZE = 10;

interface Props {
  locale: Locale;
  videoId: number;
  messages: Messages;
  mediaType?: MediaType;
  uploaderUid?: number;
}

/**
 * Comments under a video, or (mediaType) under an audio track or a photo post: the editor, the
 * threads (each with its first replies, "view N replies" for the rest, and a reply editor),
 * votes, deletion, the uploader's pin, hot/new sorting and paging.
 */
export default function Comments({ locale, videoId, messages, mediaType = 'video', uploaderUid }: Props) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [page, setPage] = useState(1);
  /** How the current page is reached: from an edge of the page before it was shown (decision 0039), else by number. */
  const [edge, setEdge] = useState<{ after: string } | { before: string } | undefined>(undefined);
  /** The edges the last answer gave, for the next and the previous page. */
  const [cursors, setCursors] = useState<{ next: string | null; previous: string | null }>({
    next: null,
    previous: null,
  });
  const [sort, setSort] = useState<CommentSort>('hot');
  const [threads, setThreads] = useState<CommentThread[] | null>(null);
  const [count, setCount] = useState(0);
  const [hiddenOnPage, setHiddenOnPage] = useState(0);
  const [loadError, setLoadError] = useState('');
  const [sendError, setSendError] = useState('');
  const [sending, setSending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  /** The comment being answered (its thread shows the reply editor). */
  const [replyingTo, setReplyingTo] = useState<{ threadId: number; comment: VideoComment } | null>(null);
  /** Threads opened past their first replies: the replies loaded so far, and how many there are. */
  const [opened, setOpened] = useState<Record<number, { replies: VideoComment[]; total: number; page: number }>>({});
  /** The comment being reported (its dialog is open). */
  const [reporting, setReporting] = useState<ReportTarget | null>(null);
  const myUid = self.userInfo?.uid ?? null;
  const mayDeleteAny = can(self.userInfo, 'comment.deleteAny');
  const isUploader = uploaderUid !== undefined && can(self.userInfo, 'comment.pin', { ownerUid: uploaderUid });
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  const load = useCallback(
    async (target: number, order: CommentSort, from?: { after: string } | { before: string }) => {
      try {
        const answer = await getComments(videoId, target, PAGE_SIZE, mediaType, order, target > 1 ? from : undefined);
        setThreads(answer.videoCommentList);
        setCount(answer.videoCommentCount);
        setCursors({ next: answer.nextCursor, previous: answer.previousCursor });
        setHiddenOnPage(answer.hiddenCommentCount ?? 0);
        setOpened({});
        setLoadError('');
      } catch (error) {
        setLoadError(error instanceof HttpError ? errorMessage(error, t) : t('comments.loadFailed'));
      }
    },
    [videoId, mediaType, t],
  );

  // Reload when the page or order changes and once the login is known (votes are marked for the viewer).
  useEffect(() => {
    if (self.isEffectiveCheckOnce) void load(page, sort, edge);
  }, [page, sort, edge, self.isEffectiveCheckOnce, myUid, load]);

  /** Pages step from the shown page's edge (a walk of the index however deep), or by number when no edge is known. */
  const goTo = (target: number) => {
    const from =
      target === page + 1 && cursors.next
        ? { after: cursors.next }
        : target === page - 1 && cursors.previous
          ? { before: cursors.previous }
          : undefined;
    setEdge(from);
    setPage(target);
  };

  const openThread = async (threadId: number, replyPage = 1) => {
    try {
      const answer = await getReplies(videoId, mediaType, threadId, replyPage, REPLIES_PAGE_SIZE);
      setOpened((all) => ({
        ...all,
        [threadId]: {
          replies: replyPage === 1 ? answer.replies : [...(all[threadId]?.replies ?? []), ...answer.replies],
          total: answer.replyCount,
          page: replyPage,
        },
      }));
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  const send = async (html: string): Promise<boolean> => {
    setSending(true);
    setSendError('');
    try {
      await emitComment(videoId, html, mediaType);
      showToast({ message: t('comments.sent'), severity: 'success' });
      if (page === 1) await load(1, sort);
      else goTo(1);
      return true;
    } catch (error) {
      setSendError(errorMessage(error, t));
      return false;
    } finally {
      setSending(false);
    }
  };

  const sendReply = async (html: string): Promise<boolean> => {
    if (!replyingTo) return false;
    setSending(true);
    try {
      await emitComment(videoId, html, mediaType, replyingTo.comment.id);
      showToast({ message: t('conversation.replySent'), severity: 'success' });
      const { threadId } = replyingTo;
      setReplyingTo(null);
      // The thread opens on its replies, the new one last.
      const answer = await getReplies(videoId, mediaType, threadId, 1, 50);
      setOpened((all) => ({
        ...all,
        [threadId]: {
          replies: answer.replies,
          total: answer.replyCount,
          page: Math.ceil(answer.replies.length / REPLIES_PAGE_SIZE),
        },
      }));
      setThreads(
        (list) => list?.map((th) => (th.id === threadId ? { ...th, replyCount: answer.replyCount } : th)) ?? null,
      );
      return true;
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
      return false;
    } finally {
      setSending(false);
    }
  };

  const startReply = (threadId: number, comment: VideoComment) => {
    if (!self.isLogined) return void openAuthDialog('login');
    setReplyingTo({ threadId, comment });
  };

  const mentionSource = useCallback(
    (prefix: string) =>
      getMentionCandidates(videoId, mediaType, prefix, replyingTo?.threadId).then((answer) => answer.users),
    [videoId, mediaType, replyingTo?.threadId],
  );

  /** Applies a vote's answer to the comment wherever it shows (a head, a first reply, an opened thread). */
  const patch = (id: number, change: Partial<VideoComment>) => {
    const apply = <C extends VideoComment>(c: C): C => (c.id === id ? { ...c, ...change } : c);
    setThreads((list) => list?.map((th) => ({ ...apply(th), replies: th.replies.map(apply) })) ?? null);
    setOpened((all) =>
      Object.fromEntries(Object.entries(all).map(([k, v]) => [k, { ...v, replies: v.replies.map(apply) }])),
    );
  };

  const vote = async (comment: VideoComment, kind: 'upvote' | 'downvote') => {
    if (!self.isLogined) return void openAuthDialog('login');
    const active = kind === 'upvote' ? comment.isUpvote : comment.isDownvote;
    try {
      const { success: _, ...result } = await voteComment(kind, videoId, comment.id, active, mediaType);
      patch(comment.id, result);
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  const remove = async (comment: VideoComment) => {
    if (confirming !== comment.commentRoute) return setConfirming(comment.commentRoute);
    setConfirming(null);
    try {
      if (can(self.userInfo, 'comment.deleteOwn', { ownerUid: comment.uid }))
        await deleteComment(videoId, comment.commentRoute, false, mediaType);
      else if (isUploader) await deleteCommentAsUploader(videoId, mediaType, comment.commentRoute);
      else await deleteComment(videoId, comment.commentRoute, true, mediaType);
      showToast({ message: t('comments.deleted'), severity: 'success' });
      // The last comment of a later page gone: step back a page.
      if (threads?.length === 1 && !comment.parentId && page > 1) goTo(page - 1);
      else await load(page, sort, edge);
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  const report = (comment: VideoComment) => {
    if (!self.isLogined) return void openAuthDialog('login');
    setReporting({ type: 'comment', id: comment.id });
  };

  const pin = async (comment: VideoComment) => {
    try {
      await pinComment(videoId, mediaType, comment.id, !comment.isPinned);
      showToast({
        message: comment.isPinned ? t('conversation.unpinned') : t('conversation.pinned'),
        severity: 'success',
      });
      await load(page, sort, edge);
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  const item = (c: VideoComment, threadId: number) => {
    const name = c.userInfo.userNickname || c.userInfo.username;
    const mine = can(self.userInfo, 'comment.deleteOwn', { ownerUid: c.uid });
    const profile = localizePath(`/user/${c.uid}`, locale);
    const isReply = c.parentId !== null;
    if (c.isDeleted) {
      return (
        <div className="comment is-deleted" data-comment={c.commentRoute} data-comment-deleted>
          <span className="comment-avatar" aria-hidden="true">
            ✕
          </span>
          <p className="comment-main comment-deleted-text">{t('conversation.deletedComment')}</p>
        </div>
      );
    }
    return (
      <div className={`comment${isReply ? ' is-reply' : ''}`} data-comment={c.commentRoute} data-comment-id={c.id}>
        <a className="comment-avatar" href={profile} aria-hidden="true" tabIndex={-1}>
          {c.userInfo.avatar ? (
            <img src={c.userInfo.avatar} alt="" width="40" height="40" loading="lazy" />
          ) : (
            <span>{[...name][0]}</span>
          )}
        </a>
        <div className="comment-main">
          <div className="comment-meta">
            <CommentAuthor locale={locale} uid={c.uid} name={name} t={t} messages={messages} />
            {c.isPinned && (
              <span className="comment-pin-badge" data-comment-pinned>
                {t('conversation.pinnedBadge')}
              </span>
            )}
            {!isReply && (
              <span className="comment-floor" data-comment-floor>
                {t('comments.floor', { floor: c.commentIndex })}
              </span>
            )}
            <time
              dateTime={new Date(c.emitTime).toISOString()}
              title={new Date(c.emitTime).toLocaleString(LOCALE_INFO[locale].htmlLang)}
            >
              {relativeTime(c.emitTime, locale)}
            </time>
          </div>
          <CommentBody html={c.text} mentions={c.mentions} locale={locale} />
          <div className="comment-actions">
            <button
              type="button"
              className="comment-vote"
              aria-pressed={c.isUpvote}
              aria-label={`${t('comments.upvote')} ${c.upvoteCount}`}
              title={t('comments.upvote')}
              onClick={() => void vote(c, 'upvote')}
              data-upvote
            >
              <span aria-hidden="true">▲</span> <span data-count>{c.upvoteCount}</span>
            </button>
            <button
              type="button"
              className="comment-vote"
              aria-pressed={c.isDownvote}
              aria-label={`${t('comments.downvote')} ${c.downvoteCount}`}
              title={t('comments.downvote')}
              onClick={() => void vote(c, 'downvote')}
              data-downvote
            >
              <span aria-hidden="true">▼</span> <span data-count>{c.downvoteCount}</span>
            </button>
            <button type="button" className="comment-vote" onClick={() => startReply(threadId, c)} data-reply>
              {t('conversation.reply')}
            </button>
            {isUploader && !isReply && (
              <button
                type="button"
                className="comment-vote"
                aria-pressed={c.isPinned}
                onClick={() => void pin(c)}
                data-pin
              >
                {c.isPinned ? t('conversation.unpin') : t('conversation.pin')}
              </button>
            )}
            {(mine || mayDeleteAny || isUploader) && (
              <button
                type="button"
                className={`comment-delete${confirming === c.commentRoute ? ' is-confirming' : ''}`}
                onClick={() => void remove(c)}
                onBlur={() => setConfirming(null)}
                data-comment-delete={mine ? 'self' : isUploader ? 'uploader' : 'admin'}
              >
                {confirming === c.commentRoute
                  ? t('comments.confirmDelete')
                  : mine
                    ? t('comments.delete')
                    : t('comments.adminDelete')}
              </button>
            )}
            {!mine && (
              <button
                type="button"
                className="comment-vote comment-report"
                aria-haspopup="dialog"
                aria-label={t('moderation.report.title', { target: t('moderation.targets.comment') })}
                title={t('moderation.report.title', { target: t('moderation.targets.comment') })}
                onClick={() => report(c)}
                data-comment-report={c.id}
              >
                <span aria-hidden="true">⚑</span> {t('moderation.report.action')}
              </button>
            )}
          </div>
        </div>
      </div>
    );
  };

  return (
    <section className="card comments" aria-labelledby="comments-heading" data-comments>
      <div className="comments-head">
        <h2 id="comments-heading" className="comments-heading">
          {t('comments.heading')}{' '}
          {threads && (
            <span className="comments-count" data-comment-count>
              {count}
            </span>
          )}
        </h2>
        <div className="comments-sort" role="group" aria-label={t('conversation.sortLabel')}>
          {(['hot', 'new'] as const).map((order) => (
            <button
              key={order}
              type="button"
              className="comment-sort"
              aria-pressed={sort === order}
              data-sort={order}
              onClick={() => {
                setSort(order);
                goTo(1);
              }}
            >
              {order === 'hot' ? t('conversation.sortHot') : t('conversation.sortNew')}
            </button>
          ))}
        </div>
      </div>

      {!self.isEffectiveCheckOnce ? null : self.isLogined ? (
        <>
          <CommentEditor t={t} busy={sending} onSend={send} mentionSource={mentionSource} />
          {sendError && (
            <p className="auth-error" role="alert" data-comment-error>
              {sendError}
            </p>
          )}
        </>
      ) : (
        <div className="comments-guest" data-comments-guest>
          <span>{t('comments.loginToComment')}</span>
          <button type="button" className="button" onClick={() => void openAuthDialog('login')}>
            {t('comments.login')}
          </button>
        </div>
      )}

      {loadError && (
        <p className="auth-error" role="alert">
          {loadError}
        </p>
      )}
      {threads === null && !loadError && (
        <p className="field-hint" aria-busy="true">
          {t('comments.loading')}
        </p>
      )}
      {threads?.length === 0 && !hiddenOnPage && (
        <p className="comments-empty" data-comments-empty>
          {t('comments.empty')}
        </p>
      )}

      <ol className="comment-list">
        {threads?.map((th) => {
          const open = opened[th.id];
          const shown = open?.replies ?? th.replies;
          const total = open?.total ?? th.replyCount;
          return (
            <li key={th.id} className="comment-thread" data-thread={th.id}>
              {item(th, th.id)}
              {(shown.length > 0 || replyingTo?.threadId === th.id) && (
                <ol className="comment-replies" data-replies>
                  {shown.map((r) => (
                    <li key={r.id}>{item(r, th.id)}</li>
                  ))}
                </ol>
              )}
              {total > shown.length && (
                <button
                  type="button"
                  className="comment-more-replies"
                  data-view-replies={total}
                  onClick={() => void openThread(th.id, open ? open.page + 1 : 1)}
                >
                  {open ? t('conversation.moreReplies') : t('conversation.viewReplies', { count: total })}
                </button>
              )}
              {replyingTo?.threadId === th.id && (
                <div className="comment-reply-editor" data-reply-editor>
                  <CommentEditor
                    t={t}
                    busy={sending}
                    onSend={sendReply}
                    mentionSource={mentionSource}
                    autoFocus
                    onCancel={() => setReplyingTo(null)}
                    placeholder={t('conversation.replyTo', {
                      name: replyingTo.comment.userInfo.userNickname || replyingTo.comment.userInfo.username,
                    })}
                  />
                </div>
              )}
            </li>
          );
        })}
      </ol>
      <LazyReportDialog
        t={(key, options) => String(t(key, options as never))}
        target={reporting}
        onClose={() => setReporting(null)}
      />
      {hiddenOnPage > 0 && (
        <p className="field-hint comments-hidden" data-comments-hidden={hiddenOnPage}>
          {t('comments.hiddenByBlocks', { count: hiddenOnPage })}
        </p>
      )}

      {pages > 1 && (
        <nav className="pager" aria-label={t('comments.pages')}>
          <button type="button" className="button secondary" disabled={page <= 1} onClick={() => goTo(page - 1)}>
            {t('comments.previous')}
          </button>
          <span data-comment-page>{t('comments.pageOf', { page, pages })}</span>
          <button type="button" className="button secondary" disabled={page >= pages} onClick={() => goTo(page + 1)}>
            {t('comments.next')}
          </button>
        </nav>
      )}
    </section>
  );
}
