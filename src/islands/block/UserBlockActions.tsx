import { useEffect, useState } from 'react';
import { blockUser, hideUser, unblockUser, unhideUser } from '../../lib/api/calls/block.ts';
import { HttpError } from '../../lib/api/http.ts';
import { $blockLists, EMPTY_BLOCK_LISTS, loadBlockLists } from '../../lib/stores/block-lists.ts';
import { showToast } from '../../lib/stores/toast.ts';
import type { Locale } from '../../lib/i18n/locales.ts';
import type { Messages } from '../../lib/i18n/translate.ts';
import { useIslandTranslation } from '../use-island-translation.ts';
import { useSelfUser } from '../use-self-user.ts';
import { useHydratedStore } from '../use-hydrated-store.ts';
import './user-block-actions.css';

/** "Block" and "Hide" on a user's page, for members looking at someone else. */
export default function UserBlockActions({
  locale,
  uid,
  messages,
}: {
  locale: Locale;
  uid: number;
  messages: Messages;
}) {
  const t = useIslandTranslation(locale, messages);
  const self = useSelfUser();
  const lists = useHydratedStore($blockLists, EMPTY_BLOCK_LISTS);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (self.isLogined) void loadBlockLists();
  }, [self.isLogined]);

  if (!self.isLogined || !self.userInfo || self.userInfo.uid === uid) return null;
  const blocked = lists.users.includes(uid);
  const hidden = lists.hiddenUsers.includes(uid);

  const toggle = async (kind: 'block' | 'hide') => {
    setBusy(true);
    try {
      if (kind === 'block') await (blocked ? unblockUser(uid) : blockUser(uid));
      else await (hidden ? unhideUser(uid) : hideUser(uid));
      await loadBlockLists();
      const done = kind === 'block' ? (blocked ? 'unblocked' : 'blocked') : hidden ? 'unhidden' : 'hidden';
      showToast({ message: t(`blockLists.user.${done}`), severity: 'success' });
    } catch (error) {
      const message =
        error instanceof HttpError ? (error.body as { message?: string } | undefined)?.message : undefined;
      showToast({ message: message ?? t('api.internal'), severity: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-user-block-actions>
      <div className="user-block-actions">
        <button
          type="button"
          className="button secondary"
          aria-pressed={blocked}
          disabled={busy}
          onClick={() => void toggle('block')}
          data-block-user
        >
          {t(blocked ? 'blockLists.user.unblock' : 'blockLists.user.block')}
        </button>
        <button
          type="button"
          className="button secondary"
          aria-pressed={hidden}
          disabled={busy}
          onClick={() => void toggle('hide')}
          data-hide-user
        >
          {t(hidden ? 'blockLists.user.unhide' : 'blockLists.user.hide')}
        </button>
      </div>
      {(blocked || hidden) && (
        <p className="user-block-notice" role="status">
          {t(blocked ? 'blockLists.user.blockedNotice' : 'blockLists.user.hiddenNotice')}
        </p>
      )}
    </div>
  );
}
