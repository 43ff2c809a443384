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
  'MEDIA_NOT_READY', 'MEDIA_REJECTED', 'TAG_EXISTS',
  'BLOCK_LIST_FULL', 'BLOCK_SELF', 'UNSAFE_REGEX', 'INVALID_REGEX', 'BLOCKED_BY_UPLOADER',
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
  /** The cover, or the poster frame when the uploader set none ('' while not yet transcoded). */
  image: z.string(),
  uploadDate: z.number(),
  watchedCount: z.number(),
  uploader: z.string(),
  uploaderNickname: z.string().nullable(),
  uploaderId: positiveId,
  duration: z.number(),
  description: z.string(),
  videoCategory: z.string(),
  /** Only in the uploader's own list and the review queue: pending videos are not public. */
  status: z.enum(['pending', 'approved']).optional(),
});
export type VideoThumb = z.infer<typeof videoThumb>;

export const videoListResponse = blockFlags.extend({
  success: z.boolean(),
  message: z.string().optional(),
  videosCount: z.number(),
  videos: z.array(videoThumb),
});
export type VideoListResponse = z.infer<typeof videoListResponse>;

// ---- Tags ----
/** Tag languages: the interface languages, plus 'other' for names in any other language. */
export const TAG_LANGUAGES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'other'] as const;
export type TagLanguage = (typeof TAG_LANGUAGES)[number];
export const TAG_NAME_MAX = 30;
export const MAX_TAGS_PER_VIDEO = 10;
export interface TagName { name: string; isDefault: boolean; isOriginalTagName: boolean }
export interface TagNameGroup { lang: TagLanguage; tagName: TagName[] }
export interface Tag { tagId: number; tagNameList: TagNameGroup[] }

const tagNameText = z.string().trim().min(1, 'must not be empty').max(TAG_NAME_MAX, `at most ${TAG_NAME_MAX} characters`)
  .refine((name) => !/[\p{Cc}#,，、]/u.test(name), 'must not contain control characters, # or commas');
export const tagCreateBody = z.object({
  tagNameList: z.array(z.object({
    lang: z.enum(TAG_LANGUAGES),
    tagName: z.array(z.object({ name: tagNameText, isDefault: z.boolean().default(false), isOriginalTagName: z.boolean().default(false) })).min(1).max(5),
  })).min(1).max(TAG_LANGUAGES.length),
}).superRefine((body, ctx) => {
  const langs = body.tagNameList.map((g) => g.lang);
  if (new Set(langs).size !== langs.length) ctx.addIssue({ code: 'custom', path: ['tagNameList'], message: 'each language appears once' });
  const originals = body.tagNameList.flatMap((g) => g.tagName).filter((n) => n.isOriginalTagName).length;
  if (originals > 1) ctx.addIssue({ code: 'custom', path: ['tagNameList'], message: 'at most one original name' });
});
export type TagCreateBody = z.input<typeof tagCreateBody>;
export interface TagCreateResponse { success: true; tagId: number }
export const tagSearchQuery = z.object({ tagName: z.string().trim().min(1).max(TAG_NAME_MAX) });
export const tagIdsBody = z.object({ tagId: z.array(positiveId).min(1).max(50) });
export interface TagSearchResponse { success: true; result: Tag[] }
export interface TagListResponse { success: boolean; message?: string; result: Tag[] }

// ---- One video ----
export const VIDEO_CATEGORIES = ['anime', 'music', 'otomad', 'tech', 'design', 'game', 'misc'] as const;
export type VideoCategory = (typeof VIDEO_CATEGORIES)[number];
export const COPYRIGHTS = ['original', 'authorized-repost', 'repost'] as const;
export type Copyright = (typeof COPYRIGHTS)[number];
export const VIDEO_TITLE_MAX = 80;
export const VIDEO_DESCRIPTION_MAX = 2000;
export const MAX_VIDEO_PARTS = 20;

/** Seek-preview tiles of one part (storyboard.jpg): a grid of tileWidth × tileHeight frames. */
export interface Storyboard { url: string; intervalSeconds: number; columns: number; rows: number; tileWidth: number; tileHeight: number; count: number }
export interface VideoPart {
  id: number;
  videoPartTitle: string;
  /** The part's HLS master playlist (the lowest rung is published first); null until then. */
  link: string | null;
  duration: number;
  /** transcoding → playable (some rungs) → ready (full ladder and storyboard); or failed. */
  processing: 'waiting' | 'transcoding' | 'playable' | 'ready' | 'failed';
  renditions: number[];
  poster: string | null;
  storyboard: Storyboard | null;
}
export interface UploaderInfo { uid: number; username: string; userNickname: string | null; avatar: string; signature: string; isFollowing: boolean; isSelf: boolean }
export interface VideoDetail {
  videoId: number;
  videoPart: VideoPart[];
  title: string;
  image: string;
  uploadDate: number;
  watchedCount: number;
  uploaderId: number;
  duration: number;
  description: string;
  videoCategory: VideoCategory;
  copyright: Copyright;
  originalAuthor: string | null;
  originalLink: string | null;
  videoTagList: Tag[];
  uploaderInfo: UploaderInfo;
  status: 'pending' | 'approved';
}
export interface VideoResponse {
  success: boolean;
  message?: string;
  isBlockedByOther?: boolean;
  isBlocked?: boolean;
  isHidden?: boolean;
  video?: VideoDetail;
}

const httpUrl = z.string().trim().max(500).url('must be a web address')
  .refine((url) => /^https?:\/\//i.test(url), 'must start with http:// or https://');
/** video/upload (commit). `duration` is never read from the browser: the server fills it from ffprobe. */
export const videoUploadBody = z.object({
  title: z.string().trim().min(1, 'must not be empty').max(VIDEO_TITLE_MAX),
  description: z.string().trim().max(VIDEO_DESCRIPTION_MAX).default(''),
  /** A cover from video/cover/preUpload's image service; none means the poster frame. */
  image: z.string().max(300).nullish(),
  videoPart: z.array(z.object({
    mediaId: z.string().regex(/^[0-9a-f]{24}$/, 'is not a media id'),
    videoPartTitle: z.string().trim().max(VIDEO_TITLE_MAX).default(''),
  })).min(1).max(MAX_VIDEO_PARTS),
  videoCategory: z.enum(VIDEO_CATEGORIES),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().trim().max(100).nullish(),
  originalLink: httpUrl.nullish(),
  pushToFeed: z.boolean().default(false),
  ensureOriginal: z.boolean().default(false),
  videoTagList: z.array(positiveId).max(MAX_TAGS_PER_VIDEO).default([]),
}).superRefine((body, ctx) => {
  if (body.copyright === 'repost' && !body.originalAuthor) ctx.addIssue({ code: 'custom', path: ['originalAuthor'], message: 'a repost names its original author' });
  if (body.copyright === 'repost' && !body.originalLink) ctx.addIssue({ code: 'custom', path: ['originalLink'], message: 'a repost links to the original' });
  if (body.copyright === 'original' && !body.ensureOriginal) ctx.addIssue({ code: 'custom', path: ['ensureOriginal'], message: 'confirm that the video is your own work' });
  const ids = body.videoPart.map((p) => p.mediaId);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['videoPart'], message: 'each part is a different file' });
});
export type VideoUploadBody = z.input<typeof videoUploadBody>;
export interface VideoUploadResponse { success: true; videoId: number }
export const videoIdBody = z.object({ videoId: positiveId });
export interface CoverPreUploadResponse { success: true; result: { signedUrl: string; fileName: string } }

// ---- Lists and search ----
export const homeQuery = pagedQuery();
export const userVideosQuery = pagedQuery().extend({ uid: positiveId });
export const searchQuery = pagedQuery().extend({ keyword: z.string().trim().min(1, 'must not be empty').max(100) });
export const tagSearchVideosBody = pagedQuery().extend({ tagId: z.array(positiveId).min(1).max(10) });
export const categoryQuery = pagedQuery().extend({ category: z.enum(VIDEO_CATEGORIES) });
function pagedQuery() {
  return z.object({
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(100).default(30),
  });
}

/** A video waiting for review, with what the reviewer needs to judge it. */
export interface PendingVideo extends VideoThumb {
  copyright: Copyright;
  originalAuthor: string | null;
  originalLink: string | null;
  tags: Tag[];
  parts: VideoPart[];
}
export interface PendingVideosResponse { success: true; videosCount: number; videos: PendingVideo[] }
export interface WatchResponse { success: true; counted: boolean; watchedCount: number }

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
  /** Off: the server records no watch history for this member. */
  historyEnabled: z.boolean(),
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

// ---- Danmaku ----
export const DANMAKU_MODES = ['rtl', 'ltr', 'top', 'bottom'] as const;
export type DanmakuMode = (typeof DANMAKU_MODES)[number];
export const DANMAKU_SIZES = ['small', 'medium', 'large'] as const;
export type DanmakuSize = (typeof DANMAKU_SIZES)[number];
export const DANMAKU_TEXT_MAX = 100;
/** video/danmaku answers in time segments of this length, so long videos load progressively. */
export const DANMAKU_SEGMENT_SECONDS = 360;

export const danmakuEmitBody = z.object({
  videoId: positiveId,
  time: z.number().finite().min(0),
  // Counted in characters as people see them (code points), after trimming.
  text: z.string().transform((t) => t.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim())
    .refine((t) => [...t].length >= 1, 'must not be empty').refine((t) => [...t].length <= DANMAKU_TEXT_MAX, `at most ${DANMAKU_TEXT_MAX} characters`),
  color: z.string().regex(/^#?[0-9a-fA-F]{6}$/, 'hex colour').transform((c) => c.replace('#', '').toLowerCase()),
  fontSize: z.enum(DANMAKU_SIZES).default('medium'),
  mode: z.enum(DANMAKU_MODES).default('rtl'),
  enableRainbow: z.boolean().default(false),
});
export type DanmakuEmitBody = z.input<typeof danmakuEmitBody>;
/** One danmaku as everyone receives it: never the sender's id. */
export interface Danmaku { id: number; time: number; text: string; color: string; fontSize: DanmakuSize; mode: DanmakuMode; enableRainbow: boolean; editDateTime: number }
export interface DanmakuEmitResponse { success: true; danmaku: Danmaku }
export const danmakuQuery = z.object({ videoId: positiveId, segment: z.coerce.number().int().min(0).max(10_000).optional() });
export interface DanmakuListResponse {
  success: true;
  danmaku: Danmaku[];
  /** The segment answered (absent: the whole pool), its length and how many the video has. */
  segment?: number;
  segmentSeconds: number;
  segmentCount: number;
}

// ---- Comments ----
export const COMMENT_TEXT_MAX = 20_000;
export const commentEmitBody = z.object({ videoId: positiveId, text: z.string().min(1).max(COMMENT_TEXT_MAX) });
export const commentListQuery = z.object({
  videoId: positiveId,
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(50).default(20),
});
export const commentVoteBody = z.object({ videoId: positiveId, id: positiveId });
export const commentDeleteBody = z.object({ videoId: positiveId, commentRoute: z.string().regex(/^\d{1,15}\.\d{1,9}$/, 'is "<videoId>.<floor>"') });
export interface VideoComment {
  id: number;
  /** "<videoId>.<floor>" */
  commentRoute: string;
  videoId: number;
  uid: number;
  userInfo: { username: string; userNickname: string | null; avatar: string };
  emitTime: number;
  /** Sanitised HTML: b, strong, i, em, u, s, del, br, p only; no attributes. */
  text: string;
  isUpvote: boolean;
  isDownvote: boolean;
  upvoteCount: number;
  downvoteCount: number;
  commentIndex: number;
}
export interface CommentEmitResponse { success: true; comment: VideoComment }
export interface CommentListResponse {
  success: true;
  /** Every comment but those of people the viewer blocked (pages are counted from it). */
  videoCommentCount: number;
  /** How many comments of this page the viewer's block keywords or expressions left out. */
  hiddenCommentCount: number;
  videoCommentList: VideoComment[];
}
export interface CommentVoteResponse { success: true; upvoteCount: number; downvoteCount: number; isUpvote: boolean; isDownvote: boolean }

// ---- History ----
export const historyRecordBody = z.object({ videoId: positiveId, anchor: z.number().finite().min(0).max(24 * 3600) });
export const historyFilterQuery = z.object({ videoTitle: z.string().trim().max(100).optional() });
export interface HistoryItem extends VideoThumb {
  category: 'video';
  id: number;
  /** The last playback position, in seconds. */
  anchor: number;
  lastUpdateDateTime: number;
}
export interface HistoryListResponse { success: true; result: HistoryItem[] }

// ---- Block lists (SPEC §7 "Block"; fields and limits from API-NOTES) ----
import { BLOCK_LIST_TYPES, BLOCK_KEYWORD_MAX, BLOCK_REGEX_MAX, type BlockListType } from '../validation/block-lists.ts';
export { BLOCK_LIST_TYPES, BLOCK_LIST_LIMITS, BLOCK_KEYWORD_MAX, BLOCK_REGEX_MAX, type BlockListType } from '../validation/block-lists.ts';
const blockText = (max: number) => z.string().transform((t) => t.normalize('NFC').replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim())
  .refine((t) => t.length >= 1, 'must not be empty').refine((t) => [...t].length <= max, `at most ${max} characters`);
export const blockUserBody = z.object({ blockUid: positiveId });
export const hideUserBody = z.object({ hideUid: positiveId });
export const blockTagBody = z.object({ tagId: positiveId });
export const blockKeywordBody = z.object({ blockKeyword: blockText(BLOCK_KEYWORD_MAX) });
export const blockRegexBody = z.object({ blockRegex: blockText(BLOCK_REGEX_MAX) });
export const blockListQuery = z.object({
  type: z.enum(BLOCK_LIST_TYPES),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(50),
});
export interface BlockListItem {
  type: BlockListType;
  /** The uid, tag id, keyword or expression, as text. */
  value: string;
  createDateTime: number;
  /** Users (block, hide): who. */
  uid: number | null;
  username: string | null;
  userNickname: string | null;
  avatar: string;
  /** Tags: the tag with its names. */
  tag: Tag | null;
}
export interface BlockListResponse { success: true; blocklistCount: number; limit: number; result: BlockListItem[] }
/** A block call's answer; `added` is false when the entry was already there (idempotent). */
export interface BlockChangeResponse { success: true; added?: boolean; removed?: boolean }
