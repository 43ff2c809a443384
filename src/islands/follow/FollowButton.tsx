import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import { followUser, unfollowUser } from '../../lib/api/calls/feed.ts';
import { HttpError } from '../../lib/api/http.ts';
import { can } from '../../lib/policy/policy.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import './follow.css';

interface Props {
  locale: Locale;
  uid: number;
  /** The user's shown name (the unfollow hint). */
  name: string;
  messages: Messages;
  /** The count the page was rendered with (refreshed from user/info once the island runs). */
  followerCount?: number;
  /** Told after a follow or unfollow went through (the feed page reloads). */
  onChange?: (isFollowing: boolean) => void;
  /**
   * The viewer's state as a list or card already read it for this viewer (follower lists, the
   * comment user card): no user/info call of its own.
   */
  known?: { isFollowing: boolean };
}

/**
 * Follow / Following beside a user's name, with their follower count. Optimistic: the button and
 * the count change at once and go back, with a toast, when the server refuses. Guests get the
 * login dialog; on one's own page only the count shows.
 */
export default function FollowButton({ locale, uid, name, messages, followerCount, onChange, known }: Props) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const viewer = self.userInfo;
  const [state, setState] = useState<{ following: boolean; count: number | null }>({
    following: known?.isFollowing ?? false,
    count: followerCount ?? null,
  });
  const [busy, setBusy] = useState(false);

  // The page may come from a shared cache: the viewer's own state and a fresh count come from user/info.
  useEffect(() => {
    if (known) return;
    let live = true;
    call('GET user/info', { uid }).then(
      ({ result }) => live && setState({ following: result.isFollowing, count: result.followerCount }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [uid, viewer?.uid]);

  const isSelf = viewer?.uid === uid;
  const toggle = async () => {
    if (!self.isLogined || !viewer) return void openAuthDialog('login');
    const before = state;
    const following = !before.following;
    setState({ following, count: before.count === null ? null : Math.max(0, before.count + (following ? 1 : -1)) });
    setBusy(true);
    try {
      const answer = await (following ? followUser(uid) : unfollowUser(uid));
      setState({ following: answer.isFollowing, count: answer.followerCount });
      onChange?.(answer.isFollowing);
    } catch (error) {
      setState(before);
      const message =
        error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
      showToast({ message: message ?? t('follow.failed'), severity: 'error' });
    } finally {
      setBusy(false);
    }
  };

  // A banned member may stop following but not start (the policy says so; the server too).
  const mayFollow = !viewer || can(viewer, 'follow.edit');
  return (
    <div className="follow-box" data-follow-box data-uid={uid}>
      {!isSelf && (state.following || mayFollow) && (
        <button
          type="button"
          className={`button follow-button${state.following ? ' secondary' : ''}`}
          disabled={busy}
          aria-busy={busy || undefined}
          title={state.following ? t('follow.unfollowTitle', { name }) : undefined}
          onClick={() => void toggle()}
          data-follow-button
          data-following={state.following}
        >
          <span aria-hidden="true">{state.following ? '✓' : '+'}</span>
          {t(state.following ? 'follow.following' : 'follow.follow')}
        </button>
      )}
      {state.count !== null && (
        <span className="follow-count" role="status" data-follower-count={state.count}>
          {t('follow.followers', { count: state.count })}
        </span>
      )}
    </div>
  );
}
