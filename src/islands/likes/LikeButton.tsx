import { useEffect, useState } from 'react';
import { call } from '../../lib/api/client.ts';
import { setLiked } from '../../lib/api/calls/interaction.ts';
import { HttpError } from '../../lib/api/http.ts';
import type { MediaType } from '../../lib/api/contracts/common.constants.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { openAuthDialog } from '../auth/open-auth-dialog.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import './likes.css';

/** The item's own answer carries its like count (and for a member whether they like it). */
async function likeFactsOf(mediaType: MediaType, id: number) {
  const answer =
    mediaType === 'audio'
      ? await call('GET audio', { audioId: id })
      : mediaType === 'photo'
        ? await call('GET photo', { photoId: id })
        : await call('GET video', { videoId: id });
  return { count: answer.likeCount ?? 0, liked: answer.isLiked ?? false };
}

/**
 * Like with its count, on the video, track and photo pages. The page may come from a shared
 * cache, so the count and the viewer's like are read once the island runs. Optimistic: the
 * button changes at once and goes back, with a toast, when the server refuses. Guests see the
 * count; pressing opens the login dialog.
 */
export default function LikeButton({
  locale,
  mediaType,
  id,
  messages,
}: {
  locale: Locale;
  mediaType: MediaType;
  id: number;
  messages: Messages;
}) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const [state, setState] = useState<{ liked: boolean; count: number | null }>({ liked: false, count: null });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    likeFactsOf(mediaType, id).then(
      (facts) => live && setState(facts),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [mediaType, id, self.userInfo?.uid]);

  const toggle = async () => {
    if (!self.isLogined) return void openAuthDialog('login');
    const before = state;
    const liked = !before.liked;
    setState({ liked, count: before.count === null ? null : Math.max(0, before.count + (liked ? 1 : -1)) });
    setBusy(true);
    try {
      const answer = await setLiked(id, mediaType, liked);
      setState({ liked: answer.isLiked, count: answer.likeCount });
    } catch (error) {
      setState(before);
      const message =
        error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
      showToast({ message: message ?? t('conversation.failed'), severity: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <button
      type="button"
      className="like-button"
      aria-pressed={state.liked}
      disabled={busy}
      onClick={() => void toggle()}
      title={state.liked ? t('conversation.unlike') : t('conversation.like')}
      data-like-button
      data-liked={state.liked}
    >
      <span aria-hidden="true" className="like-heart">
        {state.liked ? '♥' : '♡'}
      </span>
      {/* The name says what a press does and includes the count that is shown (WCAG 2.5.3). */}
      <span className="like-label">{state.liked ? t('conversation.unlike') : t('conversation.like')}</span>
      <span data-like-count>{state.count ?? '–'}</span>
    </button>
  );
}
