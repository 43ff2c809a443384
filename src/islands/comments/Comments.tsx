import { createElement, useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import { deleteComment, emitComment, getComments, voteComment } from '../../lib/api/calls/interaction.ts';
import { HttpError } from '../../lib/api/http.ts';
import type { ApiErrorBody, VideoComment } from '../../lib/api/contract.ts';
import type { MediaType } from '../../lib/api/constants.ts';
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
import './comments.css';

const PAGE_SIZE = 20;

/** The server's comment HTML, shown through the allow-list walk (never as raw innerHTML). */
function CommentBody({ html }: { html: string }) {
  const nodes = useMemo(() => (typeof DOMParser === 'undefined' ? [] : toSafeTree(new DOMParser().parseFromString(html, 'text/html').body)), [html]);
  const render = (list: SafeNode[]): ReactNode[] => list.map((n, i) => (typeof n === 'string' ? n : createElement(n.tag, { key: i }, n.tag === 'br' ? undefined : render(n.children))));
  return <div className="comment-text" data-comment-text>{render(nodes)}</div>;
}

function relativeTime(ms: number, locale: Locale): string {
  const seconds = Math.round((ms - Date.now()) / 1000);
  const steps: Array<[Intl.RelativeTimeFormatUnit, number]> = [['second', 60], ['minute', 60], ['hour', 24], ['day', 30], ['month', 12], ['year', Infinity]];
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

/** The comment section of a video: the editor, the list with votes and deletion, and paging. */
/** Comments under a video, or (mediaType) under an audio track or a photo post. */
export default function Comments({ locale, videoId, messages, mediaType = 'video' }: { locale: Locale; videoId: number; messages: Messages; mediaType?: MediaType }) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [page, setPage] = useState(1);
  const [comments, setComments] = useState<VideoComment[] | null>(null);
  const [count, setCount] = useState(0);
  const [hiddenOnPage, setHiddenOnPage] = useState(0);
  const [loadError, setLoadError] = useState('');
  const [sendError, setSendError] = useState('');
  const [sending, setSending] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const myUid = self.userInfo?.uid ?? null;
  const mayDeleteAny = can(self.userInfo, 'comment.deleteAny');
  const pages = Math.max(1, Math.ceil(count / PAGE_SIZE));

  const load = useCallback(async (target: number) => {
    try {
      const answer = await getComments(videoId, target, PAGE_SIZE, mediaType);
      setComments(answer.videoCommentList);
      setCount(answer.videoCommentCount);
      setHiddenOnPage(answer.hiddenCommentCount ?? 0);
      setLoadError('');
    } catch (error) {
      setLoadError(error instanceof HttpError ? errorMessage(error, t) : t('comments.loadFailed'));
    }
  }, [videoId, mediaType, t]);

  // Reload when the page changes and once the login is known (votes are marked for the viewer).
  useEffect(() => {
    if (self.isEffectiveCheckOnce) void load(page);
  }, [page, self.isEffectiveCheckOnce, myUid, load]);

  const send = async (html: string): Promise<boolean> => {
    setSending(true);
    setSendError('');
    try {
      await emitComment(videoId, html, mediaType);
      showToast({ message: t('comments.sent'), severity: 'success' });
      if (page === 1) await load(1);
      else setPage(1);
      return true;
    } catch (error) {
      setSendError(errorMessage(error, t));
      return false;
    } finally {
      setSending(false);
    }
  };

  const vote = async (comment: VideoComment, kind: 'upvote' | 'downvote') => {
    if (!self.isLogined) return void openAuthDialog('login');
    const active = kind === 'upvote' ? comment.isUpvote : comment.isDownvote;
    try {
      const result = await voteComment(kind, videoId, comment.id, active, mediaType);
      setComments((list) => list?.map((c) => (c.id === comment.id ? { ...c, ...result } : c)) ?? null);
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  const remove = async (comment: VideoComment) => {
    if (confirming !== comment.commentRoute) return setConfirming(comment.commentRoute);
    setConfirming(null);
    try {
      await deleteComment(videoId, comment.commentRoute, !can(self.userInfo, 'comment.deleteOwn', { ownerUid: comment.uid }), mediaType);
      showToast({ message: t('comments.deleted'), severity: 'success' });
      // The last comment of a later page gone: step back a page.
      if (comments?.length === 1 && page > 1) setPage(page - 1);
      else await load(page);
    } catch (error) {
      showToast({ message: errorMessage(error, t), severity: 'error' });
    }
  };

  return (
    <section className="card comments" aria-labelledby="comments-heading" data-comments>
      <h2 id="comments-heading" className="comments-heading">
        {t('comments.heading')} {comments && <span className="comments-count" data-comment-count>{count}</span>}
      </h2>

      {!self.isEffectiveCheckOnce ? null : self.isLogined ? (
        <>
          <CommentEditor t={t} busy={sending} onSend={send} />
          {sendError && <p className="auth-error" role="alert" data-comment-error>{sendError}</p>}
        </>
      ) : (
        <div className="comments-guest" data-comments-guest>
          <span>{t('comments.loginToComment')}</span>
          <button type="button" className="button" onClick={() => void openAuthDialog('login')}>{t('comments.login')}</button>
        </div>
      )}

      {loadError && <p className="auth-error" role="alert">{loadError}</p>}
      {comments === null && !loadError && <p className="field-hint" aria-busy="true">{t('comments.loading')}</p>}
      {comments?.length === 0 && !hiddenOnPage && <p className="comments-empty" data-comments-empty>{t('comments.empty')}</p>}

      <ol className="comment-list">
        {comments?.map((c) => {
          const name = c.userInfo.userNickname || c.userInfo.username;
          const mine = can(self.userInfo, 'comment.deleteOwn', { ownerUid: c.uid });
          const profile = localizePath(`/user/${c.uid}`, locale);
          return (
            <li key={c.id} className="comment" data-comment={c.commentRoute}>
              <a className="comment-avatar" href={profile} aria-hidden="true" tabIndex={-1}>
                {c.userInfo.avatar ? <img src={c.userInfo.avatar} alt="" width="40" height="40" loading="lazy" /> : <span>{[...name][0]}</span>}
              </a>
              <div className="comment-main">
                <div className="comment-meta">
                  <CommentAuthor locale={locale} uid={c.uid} name={name} t={t} messages={messages} />
                  <span className="comment-floor" data-comment-floor>{t('comments.floor', { floor: c.commentIndex })}</span>
                  <time dateTime={new Date(c.emitTime).toISOString()} title={new Date(c.emitTime).toLocaleString(LOCALE_INFO[locale].htmlLang)}>
                    {relativeTime(c.emitTime, locale)}
                  </time>
                </div>
                <CommentBody html={c.text} />
                <div className="comment-actions">
                  <button type="button" className="comment-vote" aria-pressed={c.isUpvote} aria-label={`${t('comments.upvote')} ${c.upvoteCount}`} title={t('comments.upvote')}
                    onClick={() => void vote(c, 'upvote')} data-upvote>
                    <span aria-hidden="true">▲</span> <span data-count>{c.upvoteCount}</span>
                  </button>
                  <button type="button" className="comment-vote" aria-pressed={c.isDownvote} aria-label={`${t('comments.downvote')} ${c.downvoteCount}`} title={t('comments.downvote')}
                    onClick={() => void vote(c, 'downvote')} data-downvote>
                    <span aria-hidden="true">▼</span> <span data-count>{c.downvoteCount}</span>
                  </button>
                  {(mine || mayDeleteAny) && (
                    <button type="button" className={`comment-delete${confirming === c.commentRoute ? ' is-confirming' : ''}`}
                      onClick={() => void remove(c)} onBlur={() => setConfirming(null)} data-comment-delete={mine ? 'self' : 'admin'}>
                      {confirming === c.commentRoute ? t('comments.confirmDelete') : mine ? t('comments.delete') : t('comments.adminDelete')}
                    </button>
                  )}
                </div>
              </div>
            </li>
          );
        })}
      </ol>
      {hiddenOnPage > 0 && <p className="field-hint comments-hidden" data-comments-hidden={hiddenOnPage}>{t('comments.hiddenByBlocks', { count: hiddenOnPage })}</p>}

      {pages > 1 && (
        <nav className="pager" aria-label={t('comments.pages')}>
          <button type="button" className="button secondary" disabled={page <= 1} onClick={() => setPage(page - 1)}>{t('comments.previous')}</button>
          <span data-comment-page>{t('comments.pageOf', { page, pages })}</span>
          <button type="button" className="button secondary" disabled={page >= pages} onClick={() => setPage(page + 1)}>{t('comments.next')}</button>
        </nav>
      )}
    </section>
  );
}
