import { map } from 'nanostores';
import type { SelfUserInfo } from '../api/contracts/user.ts';
import { getSelf, logout as logoutCall, checkToken } from '../api/calls/user.ts';
import { $appSettings } from './app-settings.ts';
import { HttpError } from '../api/http.ts';

/**
 * The self user info store of SPEC §3/§4, shared by every island and the shell. The spec's
 * tempHideAvatarFromSidebar is left out: it has no meaning here (docs/decisions/0017-no-sidebar-avatar-hiding.md).
 */
export interface SelfUserState {
  isEffectiveCheckOnce: boolean;
  isLogined: boolean;
  userInfo: SelfUserInfo | null;
}

/** Before the session is checked: also what the server renders, which knows no visitor. */
export const UNKNOWN_SELF_USER: SelfUserState = { isEffectiveCheckOnce: false, isLogined: false, userInfo: null };

export const $selfUser = map<SelfUserState>(UNKNOWN_SELF_USER);

/**
 * The member's own account as last read, kept in this browser (localStorage) so that a page
 * opened offline still shows them logged in; forgotten on logout or when the server refuses
 * the session. Only used while the uid cookie still names the same account.
 */
const REMEMBERED_KEY = 'kiraboshi.self';

function remember(info: SelfUserInfo | null): void {
  try {
    if (info) localStorage.setItem(REMEMBERED_KEY, JSON.stringify(info));
    else localStorage.removeItem(REMEMBERED_KEY);
  } catch {
    // storage refused (private mode, quota): offline pages then show a guest
  }
}

function remembered(uid: number | null): SelfUserInfo | null {
  if (uid === null) return null;
  try {
    const info = JSON.parse(localStorage.getItem(REMEMBERED_KEY) ?? 'null') as SelfUserInfo | null;
    return info && info.uid === uid ? info : null;
  } catch {
    return null;
  }
}

function clearLogin(): void {
  remember(null);
  $appSettings.setKey('authenticatorType', 'none');
  $selfUser.set({ ...$selfUser.get(), isLogined: false, userInfo: null });
}

/**
 * A successful self-info fetch logs in; one the server refuses logs out (SPEC §4). A request
 * that never got an answer (offline, the page being left) only shows the visitor as a guest
 * here: ending the session on the server for it would log them out of every tab.
 */
export async function fetchSelfUser(): Promise<SelfUserInfo | null> {
  try {
    const { result } = await getSelf();
    $appSettings.setKey('authenticatorType', result.authenticatorType);
    $selfUser.set({ ...$selfUser.get(), isLogined: true, userInfo: result, isEffectiveCheckOnce: true });
    remember(result);
    return result;
  } catch (error) {
    if (error instanceof HttpError) await logoutSelfUser();
    else {
      // No answer (offline): the session is not known to be over, so the member stays as they were.
      const known = remembered(uidCookie());
      if (known) {
        $selfUser.set({ ...$selfUser.get(), isLogined: true, userInfo: known, isEffectiveCheckOnce: true });
        return known;
      }
      $appSettings.setKey('authenticatorType', 'none');
      $selfUser.set({ ...$selfUser.get(), isLogined: false, userInfo: null });
    }
    $selfUser.setKey('isEffectiveCheckOnce', true);
    return null;
  }
}

/** Logs out only if the server says so; a failure is only logged. */
export async function logoutSelfUser(): Promise<boolean> {
  try {
    const { success } = await logoutCall();
    if (success) clearLogin();
    return success;
  } catch (error) {
    console.error('logout failed', error);
    return false;
  }
}

/** user/check: logged in when the server reports success and a valid token. */
export async function checkSelfToken(): Promise<boolean> {
  try {
    const { success, userTokenOk } = await checkToken();
    const ok = success && userTokenOk;
    if (ok) $selfUser.setKey('isLogined', true);
    return ok;
  } catch {
    return false;
  } finally {
    $selfUser.setKey('isEffectiveCheckOnce', true);
  }
}

/** The uid cookie (readable; the token is httpOnly) tells whether a session may exist. */
export function uidCookie(): number | null {
  const match = /(?:^|; )uid=(\d+)/.exec(typeof document === 'undefined' ? '' : document.cookie);
  return match ? Number(match[1]) : null;
}
