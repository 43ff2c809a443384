import { useEffect, useState } from 'react';
import { useStore } from '@nanostores/react';
import { $selfUser, type SelfUserState } from '../lib/stores/self-user.ts';

/** What the server rendered: nobody known yet. */
const SERVER_VIEW: SelfUserState = { isEffectiveCheckOnce: false, isLogined: false, userInfo: null, tempHideAvatarFromSidebar: false };

/**
 * The self-user store for an island, as the server saw it until the island has mounted: the
 * shell may already know the login when a late (client:visible, client:idle) island hydrates,
 * and the first client render must still match the static HTML.
 */
export function useSelfUser(): SelfUserState {
  const self = useStore($selfUser);
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  return mounted ? self : SERVER_VIEW;
}
