import { request } from '../http.ts';
import type { HistoryResponse, InvitationCodeListResponse, UserExistsResponse } from '../contract.ts';
import { isMissing, withFallback } from './fallback.ts';
import { CALL_MESSAGES as M } from './messages.ts';

export function userExists(uid: number | undefined) {
  if (isMissing(uid)) return Promise.resolve<UserExistsResponse>({ success: false, exists: false, message: M.noUid });
  return withFallback(() => request<UserExistsResponse>('user/exists', { query: { uid } }), { success: false, exists: false, message: M.userExistsFailed }, M.userExistsFailed);
}

/** history/filter; without a title it lists the whole history. */
export function getHistory(videoTitle?: string) {
  return withFallback(
    () => request<HistoryResponse>('history/filter', { query: { videoTitle: videoTitle?.trim() || undefined } }),
    { success: false, message: M.historyFailed, result: [] },
    M.historyFailed,
  );
}

export function getMyInvitationCodes() {
  return withFallback(
    () => request<InvitationCodeListResponse>('user/myInvitationCode'),
    { success: false, message: M.invitationCodesFailed, invitationCodeResult: [] },
    M.invitationCodesFailed,
  );
}
