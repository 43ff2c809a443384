import { $selfUser, UNKNOWN_SELF_USER, type SelfUserState } from '../lib/stores/self-user.ts';
import { useHydratedStore } from './use-hydrated-store.ts';

/** The self-user store for an island: nobody known yet (as the server saw it) while hydrating. */
export function useSelfUser(): SelfUserState {
  return useHydratedStore($selfUser, UNKNOWN_SELF_USER);
}
