import { request, UPLOAD_TIMEOUT_MS } from '../http.ts';
import type { InvitationCode, ImageUploadResponse, PreUploadResponse, PublicProfile, ReviewItem, UpdateInfoBody, CheckResponse, Have2FAResponse, TotpConfirmResponse, TotpCreateResponse, HistoryResponse, InvitationCodeListResponse, LoginBody, LoginResponse, RegisterBody, SelfResponse, UserExistsResponse } from '../contract.ts';
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

// ---- Accounts (these throw HttpError on failure: the forms show the server's message) ----

export const login = (body: LoginBody) => request<LoginResponse>('user/login', { method: 'POST', body });
export const register = (body: RegisterBody) => request<{ success: true; uid: number }>('user/registering', { method: 'POST', body });
export const requestRegistrationCode = (email: string, clientLanguage?: string) =>
  request<{ success: true; isCoolingDown: boolean }>('user/requestSendVerificationCode', { method: 'POST', body: { email, clientLanguage } });
export const logout = () => request<{ success: boolean }>('user/logout');
export const checkToken = () => request<CheckResponse>('user/check');
export const getSelf = () => request<SelfResponse>('user/self', { method: 'POST' });
export const checkUsername = (username: string) => request<{ success: true; isAvailableUsername: boolean }>('user/checkUsername', { query: { username } });

// ---- Two-factor (TOTP) ----
export const have2FA = () => request<Have2FAResponse>('user/checkUserHave2FAByUUID');
export const createTotp = () => request<TotpCreateResponse>('user/createTotpAuthenticator', { method: 'POST' });
export const confirmTotp = (clientOtp: string, otpAuth: string) =>
  request<TotpConfirmResponse>('user/confirmUserTotpAuthenticator', { method: 'POST', body: { clientOtp, otpAuth } });
export const deleteTotp = (clientOtp: string, password: string) =>
  request<{ success: true }>('user/deleteTotpAuthenticatorByTotpVerificationCodeController', { method: 'DELETE', body: { clientOtp, password } });

// ---- Profile and administration ----
export const getUserInfo = (uid: number) => request<{ success: true; result: PublicProfile }>('user/info', { query: { uid } });
export const updateInfo = (body: UpdateInfoBody) => request<{ success: true }>('user/update/info', { method: 'POST', body });
export const getReviewQueue = (query: { isOnlyShowUserInfoUpdatedAfterReview: boolean; page: number; pageSize: number }) =>
  request<{ success: true; result: ReviewItem[]; totalCount: number }>('user/adminGetUserInfo', { query });
export const approveUserInfo = (uid: number) => request<{ success: true }>('user/approveUserInfo', { method: 'POST', body: { uid } });
export const clearUserInfo = (uid: number) => request<{ success: true }>('user/adminClearUserInfo', { method: 'POST', body: { uid } });
export const getBlockedUsers = (page: number, pageSize: number) =>
  request<{ success: true; totalCount: number; result: Array<{ uid: number; username: string; userNickname: string | null; editDateTime: number }> }>('user/blocked/info', { query: { page, pageSize } });
export const updateUserRoles = (uid: number, newRoles: string[]) =>
  request<{ success: true; roles: string[] }>('rbac/adminUpdateUserRole', { method: 'POST', body: { uid, newRoles } });

// ---- Avatar: a signed URL from the API, then the file to the image service (60 s timeout) ----
export async function uploadAvatar(file: Blob): Promise<string> {
  const { result } = await request<PreUploadResponse>('user/avatar/preUpload');
  const form = new FormData();
  form.set('file', file);
  const { url } = await request<ImageUploadResponse>(result.signedUrl, { method: 'POST', body: form, base: '', timeoutMs: UPLOAD_TIMEOUT_MS });
  return url;
}

export const createInvitationCode = () =>
  request<{ success: true; invitationCodeResult: InvitationCode }>('user/createInvitationCode', { method: 'POST' });

// ---- Two-factor by e-mail ----
export const createEmailAuthenticator = () => request<{ success: true }>('user/createEmailAuthenticator', { method: 'POST' });
export const sendLoginCode = (email: string, password: string, clientLanguage?: string) =>
  request<{ success: true }>('user/sendUserEmailAuthenticator', { method: 'POST', body: { email, password, clientLanguage } });
export const sendDisableEmailAuthenticatorCode = (clientLanguage?: string) =>
  request<{ success: true }>('user/sendDeleteUserEmailAuthenticator', { method: 'POST', body: { clientLanguage } });
export const deleteEmailAuthenticator = (password: string, verificationCode: string) =>
  request<{ success: true }>('user/deleteUserEmailAuthenticator', { method: 'DELETE', body: { password, verificationCode } });

// ---- Credentials ----
export const requestForgotPasswordCode = (email: string, clientLanguage?: string) =>
  request<{ success: true }>('user/requestSendForgotPasswordVerificationCode', { method: 'POST', body: { email, clientLanguage } });
export const resetPassword = (email: string, newPassword: string, verificationCode: string) =>
  request<{ success: true }>('user/forgot/password', { method: 'POST', body: { email, newPassword, verificationCode } });
export const requestChangePasswordCode = (clientLanguage?: string) =>
  request<{ success: true }>('user/requestSendChangePasswordVerificationCode', { method: 'POST', body: { clientLanguage } });
export const changePassword = (oldPassword: string, newPassword: string, verificationCode: string) =>
  request<{ success: true }>('user/update/password', { method: 'POST', body: { oldPassword, newPassword, verificationCode } });
export const requestChangeEmailCode = (newEmail: string, clientLanguage?: string) =>
  request<{ success: true }>('user/requestSendChangeEmailVerificationCode', { method: 'POST', body: { newEmail, clientLanguage } });
export const changeEmail = (oldEmail: string, newEmail: string, password: string, verificationCode: string) =>
  request<{ success: true }>('user/update/email', { method: 'POST', body: { oldEmail, newEmail, password, verificationCode } });

// user/settings: the server copy of a member's settings (theme sync, history recording).
import type { UserSettings } from '../contract.ts';
export const getUserSettings = () => request<{ success: true; userSettings: UserSettings }>('user/settings', { method: 'POST' });
export const updateUserSettings = (change: Partial<UserSettings>) =>
  request<{ success: true; userSettings: UserSettings }>('user/settings/update', { method: 'POST', body: change });
