/**
 * The request/response contract shared by the server (validation) and the browser (types).
 * One schema per call; browser code imports types only, so zod never reaches the bundle.
 */
import { z } from 'zod';

/** Stable machine-readable error codes; the message beside them is in the caller's language. */
export const ERROR_CODES = [
  'VALIDATION_FAILED', 'UNAUTHORIZED', 'FORBIDDEN', 'NOT_FOUND', 'ROUTE_NOT_FOUND', 'CONFLICT',
  'RATE_LIMITED', 'PAYLOAD_TOO_LARGE', 'ORIGIN_REFUSED', 'INTERNAL',
  'EMAIL_TAKEN', 'USERNAME_TAKEN', 'VERIFICATION_CODE_INVALID', 'INVITATION_CODE_INVALID', 'WEAK_PASSWORD',
  'INVALID_CREDENTIALS', 'COOLING_DOWN', 'DAILY_LIMIT', 'ACCOUNT_TOO_NEW', 'USER_BLOCKED', 'LAST_ROOT',
  'SECOND_FACTOR_REQUIRED', 'SECOND_FACTOR_INVALID', 'SECOND_FACTOR_LOCKED', 'NOT_AN_IMAGE', 'UPLOAD_EXPIRED',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ApiErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  requestId?: string;
  /** For VALIDATION_FAILED: which fields failed and why. */
  issues?: Array<{ path: string; message: string }>;
}

/** Positive integer ids (KVID, UID) up to 2^53-1, from a query string or JSON. */
export const positiveId = z.coerce
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .positive('must be positive')
  .max(Number.MAX_SAFE_INTEGER, 'is out of range');

export const healthResponse = z.object({
  success: z.literal(true),
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['pglite', 'postgres']),
  databaseOk: z.boolean(),
  buildId: z.string().nullable(),
  uptimeSeconds: z.number(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

export const videoExistsQuery = z.object({ videoId: positiveId });
export const videoExistsResponse = z.object({ success: z.boolean(), exist: z.boolean(), message: z.string().optional() });
export type VideoExistsResponse = z.infer<typeof videoExistsResponse>;

export const userExistsQuery = z.object({ uid: positiveId });
export const userExistsResponse = z.object({ success: z.boolean(), exists: z.boolean(), message: z.string().optional() });
export type UserExistsResponse = z.infer<typeof userExistsResponse>;

/** Block flags that video and user responses carry (SPEC §3). */
export const blockFlags = z.object({
  isBlockedByOther: z.boolean().optional(),
  isBlocked: z.boolean().optional(),
  isHidden: z.boolean().optional(),
});

/** A video in a list (API-NOTES "Thumb item"); duration in milliseconds, times in epoch ms. */
export const videoThumb = z.object({
  videoId: positiveId,
  title: z.string(),
  image: z.string(),
  uploadDate: z.number(),
  watchedCount: z.number(),
  uploader: z.string(),
  uploaderNickname: z.string().nullable(),
  uploaderId: positiveId,
  duration: z.number(),
  description: z.string(),
});
export type VideoThumb = z.infer<typeof videoThumb>;

export const videoListResponse = blockFlags.extend({
  success: z.boolean(),
  message: z.string().optional(),
  videosCount: z.number(),
  videos: z.array(videoThumb),
});
export type VideoListResponse = z.infer<typeof videoListResponse>;

export const videoResponse = blockFlags.extend({
  success: z.boolean(),
  message: z.string().optional(),
  video: z.record(z.string(), z.unknown()).optional(),
});
export type VideoResponse = z.infer<typeof videoResponse>;

export const tagListResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  result: z.array(z.object({ tagId: positiveId, tagNameList: z.array(z.unknown()) })),
});
export type TagListResponse = z.infer<typeof tagListResponse>;

export const historyResponse = z.object({ success: z.boolean(), message: z.string().optional(), result: z.array(z.record(z.string(), z.unknown())) });
export type HistoryResponse = z.infer<typeof historyResponse>;

export const invitationCode = z.object({
  creatorUid: z.number().nullable(),
  invitationCode: z.string(),
  generationDateTime: z.number(),
  isPending: z.boolean(),
  disabled: z.boolean(),
  assignee: z.number().nullable(),
  usedDateTime: z.number().nullable(),
});
export type InvitationCode = z.infer<typeof invitationCode>;
export const invitationCodeListResponse = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  invitationCodeResult: z.array(invitationCode),
});
export type InvitationCodeListResponse = z.infer<typeof invitationCodeListResponse>;

// ---- User family (SPEC §7 "User"; field names from API-NOTES) ----
const email = z.string().trim().min(3).max(254);
const clientLanguage = z.enum(['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue']).optional();

export const requestCodeBody = z.object({ email, clientLanguage });
export const registerBody = z.object({
  email,
  password: z.string().min(1).max(1000),
  verificationCode: z.string().trim().regex(/^\d{6}$/, 'must be 6 digits'),
  username: z.string().max(200),
  userNickname: z.string().max(200).optional(),
  invitationCode: z.string().trim().toUpperCase().regex(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/, 'must look like KIRA-XXXX-XXXX'),
  clientLanguage,
});
export type RegisterBody = z.input<typeof registerBody>;
export const loginBody = z.object({
  email,
  password: z.string().min(1).max(1000),
  clientOtp: z.string().max(64).optional(),
  verificationCode: z.string().max(16).optional(),
});
export type LoginBody = z.input<typeof loginBody>;
export const emailQuery = z.object({ email });
export const usernameQuery = z.object({ username: z.string().min(1).max(200) });
export const uidQuery = z.object({ uid: positiveId });
export const invitationCodeBody = z.object({ invitationCode: z.string().trim().toUpperCase().max(64) });
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
export const updateRolesBody = z.object({ uid: positiveId, newRoles: z.array(z.enum(['root', 'administrator', 'developer', 'user', 'blocked'])).min(1).max(5) });

export interface SelfUserInfo {
  uid: number;
  email: string | null;
  roles: string[];
  authenticatorType: 'none' | 'totp' | 'email';
  userCreateDateTime: number;
  username: string;
  userNickname: string | null;
  avatar: string;
  signature: string;
  gender: string;
}
export interface LoginResponse { success: true; uid: number }
export interface SelfResponse { success: true; result: SelfUserInfo }
export interface CheckResponse { success: true; userTokenOk: boolean }

export const totpConfirmBody = z.object({ clientOtp: z.string().trim().min(6).max(64), otpAuth: z.string().max(500).optional() });
export const totpDeleteBody = z.object({ clientOtp: z.string().trim().min(6).max(64), password: z.string().min(1).max(1000) });
export interface TotpCreateResponse { success: boolean; isExists: boolean; existsAuthenticatorType: 'totp' | 'email' | null; result: { otpAuth: string } | null }
export interface TotpConfirmResponse { success: true; result: { backupCode: string[]; recoveryCode: string } }
export interface Have2FAResponse { success: true; have2FA: boolean; type: 'totp' | 'email' | 'none'; totpCreationDateTime: number | null }

// ---- Profile and its review ----
export const GENDERS = ['', 'male', 'female', 'other'] as const;
export const updateInfoBody = z.object({
  username: z.string().max(200).optional(),
  userNickname: z.string().max(200).optional(),
  signature: z.string().max(200, 'at most 200 characters').optional(),
  gender: z.enum(GENDERS).optional(),
  userBirthday: z.union([z.literal(''), z.iso.date()]).optional(),
  label: z.array(z.object({ id: z.number().optional(), labelName: z.string().trim().min(1).max(20) })).max(10).optional(),
  userWebsite: z.object({ websiteName: z.string().max(40), websiteUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(300)]) }).optional(),
});
export type UpdateInfoBody = z.input<typeof updateInfoBody>;
export const reviewQuery = pageQuery.extend({
  isOnlyShowUserInfoUpdatedAfterReview: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  sortBy: z.enum(['createDateTime', 'editDateTime', 'username', 'uid']).default('editDateTime'),
  sortOrder: z.enum(['ascend', 'descend']).default('descend'),
});
export const uidBody = z.object({ uid: positiveId });
export interface PublicProfile {
  uid: number; username: string; userNickname: string | null; avatar: string; userBannerImage: string; signature: string;
  gender: string; userBirthday: string; label: Array<{ id: number; labelName: string }>; userWebsite: { websiteName: string; websiteUrl: string };
  userCreateDateTime: number; roles: string[]; isFollowing: boolean; isSelf: boolean;
}
export interface ReviewItem extends Omit<PublicProfile, 'isFollowing' | 'isSelf' | 'userBannerImage'> { editDateTime: number; isUpdatedAfterReview: boolean }

// ---- Credentials ----
export const changeEmailCodeBody = z.object({ newEmail: email, clientLanguage });
export const languageBody = z.object({ clientLanguage });
export const updateEmailBody = z.object({ oldEmail: email, newEmail: email, password: z.string().min(1).max(1000), verificationCode: z.string().trim().regex(/^\d{6}$/) });
export const updatePasswordBody = z.object({ oldPassword: z.string().min(1).max(1000), newPassword: z.string().min(1).max(1000), verificationCode: z.string().trim().regex(/^\d{6}$/) });
export const forgotPasswordBody = z.object({ email, newPassword: z.string().min(1).max(1000), verificationCode: z.string().trim().regex(/^\d{6}$/) });

// ---- User settings (server copy for theme sync) ----
export const THEME_TYPES = ['light', 'dark', 'system'] as const;
export const THEME_COLORS = ['pink', 'blue', 'purple', 'yellow', 'green', 'cyan', 'red', 'custom', 'wallpaper'] as const;
export const userSettingsShape = {
  themeType: z.enum(THEME_TYPES),
  themeColor: z.enum(THEME_COLORS),
  themeColorCustom: z.string().regex(/^[0-9a-fA-F]{6}$/, 'hex colour without #'),
  wallpaper: z.string().max(300),
  coloredSideBar: z.boolean(),
};
export type UserSettings = { [K in keyof typeof userSettingsShape]: z.infer<(typeof userSettingsShape)[K]> };
/** user/settings/update takes exactly one field. */
export const userSettingsUpdateBody = z.object(userSettingsShape).partial().strict()
  .refine((value) => Object.keys(value).length === 1, 'exactly one setting per update');

export interface PreUploadResponse { success: true; result: { signedUrl: string; fileName: string } }
export interface ImageUploadResponse { success: true; url: string }

export const sendLoginCodeBody = z.object({ email, password: z.string().min(1).max(1000), clientLanguage });
export const deleteEmailAuthenticatorBody = z.object({ password: z.string().min(1).max(1000), verificationCode: z.string().trim().regex(/^\d{6}$/) });

// ---- Video pipeline ----
export const mediaStatusQuery = z.object({ mediaId: z.string().regex(/^[0-9a-f]{24}$/) });
export interface MediaStatusResponse {
  success: true;
  mediaId: string;
  /** uploaded → probed → transcoding → playable (lowest rung out) → ready; or rejected / failed. */
  status: 'uploaded' | 'probed' | 'transcoding' | 'playable' | 'ready' | 'rejected' | 'failed';
  reason: 'NOT_A_VIDEO' | 'TOO_LONG' | 'CORRUPT' | null;
  /** Milliseconds, from ffprobe (never from the browser). */
  duration: number | null;
  width: number | null;
  height: number | null;
  /** Heights of the published HLS rungs, lowest first. */
  renditions: number[];
  manifestUrl: string | null;
  posterUrl: string | null;
}
