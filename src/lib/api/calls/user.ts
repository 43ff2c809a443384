import { request, UPLOAD_TIMEOUT_MS } from '../http.ts';
import { call, type ApiInput, type ApiOutput, type ApiRoute } from '../client.ts';
import type { UserSettings } from '../contracts/account.ts';
import { withFallback } from './fallback.ts';
import { CALL_MESSAGES as M } from './messages.ts';

/** What a call with a fallback answers when it failed (SPEC §8): its shape, unsuccessful. */
type Failed<K extends ApiRoute> = Omit<ApiOutput<K>, 'success'> & { success: false; message: string };

/**
 * history/filter, the history page's list; without a title it lists the whole history, `liked`
 * only what the member liked. A failure resolves to SPEC §8's fallback (success false, no items).
 */
export function getHistory(videoTitle?: string, show: 'all' | 'liked' = 'all') {
  return withFallback<ApiOutput<'GET history/filter'> | Failed<'GET history/filter'>>(
    () => call('GET history/filter', { videoTitle: videoTitle?.trim() || undefined, show }),
    { success: false, message: M.historyFailed, result: [] },
    M.historyFailed,
  );
}

export function getMyInvitationCodes(): Promise<ApiOutput<'GET user/myInvitationCode'>> {
  return withFallback(
    () => call('GET user/myInvitationCode'),
    { success: false, message: M.invitationCodesFailed, invitationCodeResult: [] },
    M.invitationCodesFailed,
  );
}

// ---- Accounts (these throw HttpError on failure: the forms show the server's message) ----

/** The language a mail is written in (the page's; the server falls back to the caller's). */
type ClientLanguage = ApiInput<'POST user/requestSendVerificationCode'>['clientLanguage'];

export const login = (body: ApiInput<'POST user/login'>) => call('POST user/login', body);
export const register = (body: ApiInput<'POST user/registering'>) => call('POST user/registering', body);
export const requestRegistrationCode = (email: string, clientLanguage?: string) =>
  call('POST user/requestSendVerificationCode', { email, clientLanguage: clientLanguage as ClientLanguage });
export const logout = () => call('POST user/logout');
export const checkToken = () => call('GET user/check');
export const getSelf = () => call('POST user/self');
export const checkUsername = (username: string) => call('GET user/checkUsername', { username });
export const checkEmailExists = (email: string) => call('GET user/existsCheck', { email });
export const checkInvitationCode = (invitationCode: string) =>
  call('POST user/checkInvitationCode', { invitationCode });

// ---- Two-factor (TOTP) ----
export const have2FA = () => call('GET user/checkUserHave2FAByUUID');
export const createTotp = () => call('POST user/createTotpAuthenticator');
export const confirmTotp = (clientOtp: string, otpAuth: string) =>
  call('POST user/confirmUserTotpAuthenticator', { clientOtp, otpAuth });
export const deleteTotp = (clientOtp: string, password: string) =>
  call('DELETE user/deleteTotpAuthenticatorByTotpVerificationCodeController', { clientOtp, password });

// ---- Profile and administration ----
export const getUserInfo = (uid: number) => call('GET user/info', { uid });
export const updateInfo = (body: ApiInput<'POST user/update/info'>) => call('POST user/update/info', body);
export const getReviewQueue = ({
  isOnlyShowUserInfoUpdatedAfterReview,
  ...page
}: {
  isOnlyShowUserInfoUpdatedAfterReview: boolean;
  page: number;
  pageSize: number;
}) =>
  call('GET user/adminGetUserInfo', {
    ...page,
    isOnlyShowUserInfoUpdatedAfterReview: isOnlyShowUserInfoUpdatedAfterReview ? 'true' : 'false',
  });
export const approveUserInfo = (uid: number) => call('POST user/approveUserInfo', { uid });
export const clearUserInfo = (uid: number) => call('POST user/adminClearUserInfo', { uid });
export const getJobs = (status: ApiInput<'GET admin/jobs'>['status'], page: number, pageSize: number) =>
  call('GET admin/jobs', { status, page, pageSize });
export const retryJob = (jobId: number) => call('POST admin/jobs/retry', { jobId });
export const getBlockedUsers = (page: number, pageSize: number) => call('GET user/blocked/info', { page, pageSize });
export const updateUserRoles = (uid: number, newRoles: ApiInput<'POST rbac/adminUpdateUserRole'>['newRoles']) =>
  call('POST rbac/adminUpdateUserRole', { uid, newRoles });

// ---- Avatar: a signed URL from the API, then the file to the image service (60 s timeout) ----
export async function uploadAvatar(file: Blob): Promise<string> {
  const { result } = await call('GET user/avatar/preUpload');
  const form = new FormData();
  form.set('file', file);
  const { url } = await request<ApiOutput<'POST images/upload'>>(result.signedUrl, {
    method: 'POST',
    body: form,
    base: '',
    timeoutMs: UPLOAD_TIMEOUT_MS,
  });
  return url;
}

export const createInvitationCode = () => call('POST user/createInvitationCode');

// ---- Two-factor by e-mail ----
export const createEmailAuthenticator = () => call('POST user/createEmailAuthenticator');
export const sendLoginCode = (email: string, password: string, clientLanguage?: string) =>
  call('POST user/sendUserEmailAuthenticator', { email, password, clientLanguage: clientLanguage as ClientLanguage });
export const sendDisableEmailAuthenticatorCode = (clientLanguage?: string) =>
  call('POST user/sendDeleteUserEmailAuthenticator', { clientLanguage: clientLanguage as ClientLanguage });
export const deleteEmailAuthenticator = (password: string, verificationCode: string) =>
  call('DELETE user/deleteUserEmailAuthenticator', { password, verificationCode });

// ---- Credentials ----
export const requestForgotPasswordCode = (email: string, clientLanguage?: string) =>
  call('POST user/requestSendForgotPasswordVerificationCode', {
    email,
    clientLanguage: clientLanguage as ClientLanguage,
  });
export const resetPassword = (email: string, newPassword: string, verificationCode: string) =>
  call('POST user/forgot/password', { email, newPassword, verificationCode });
export const requestChangePasswordCode = (clientLanguage?: string) =>
  call('POST user/requestSendChangePasswordVerificationCode', { clientLanguage: clientLanguage as ClientLanguage });
export const changePassword = (oldPassword: string, newPassword: string, verificationCode: string) =>
  call('POST user/update/password', { oldPassword, newPassword, verificationCode });
export const requestChangeEmailCode = (newEmail: string, clientLanguage?: string) =>
  call('POST user/requestSendChangeEmailVerificationCode', {
    newEmail,
    clientLanguage: clientLanguage as ClientLanguage,
  });
export const changeEmail = (oldEmail: string, newEmail: string, password: string, verificationCode: string) =>
  call('POST user/update/email', { oldEmail, newEmail, password, verificationCode });

// ---- user/settings: the server copy of a member's settings (theme sync, history recording) ----
export const getUserSettings = () => call('POST user/settings');
export const updateUserSettings = (change: Partial<UserSettings>) => call('POST user/settings/update', change);
