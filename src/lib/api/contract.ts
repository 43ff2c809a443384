/**
 * The request/response contract shared by the server (validation) and the browser (types).
 * One schema per call; browser code imports types only, so zod never reaches the bundle.
 */
import { z } from 'zod';
import { TAG_LANGUAGES, TAG_NAME_MAX, MAX_TAGS_PER_VIDEO, VIDEO_CATEGORIES, COPYRIGHTS, VIDEO_TITLE_MAX, VIDEO_DESCRIPTION_MAX, MAX_VIDEO_PARTS, MY_VIDEO_STATES, REJECTION_REASONS, REVIEW_REJECTION_REASONS, REVIEW_NOTE_MAX, DANMAKU_MODES, DANMAKU_SIZES, DANMAKU_TEXT_MAX } from './constants.ts';
export { REVIEW_REJECTION_REASONS, REVIEW_NOTE_MAX, type ReviewRejectionReason } from './constants.ts';
export { TAG_LANGUAGES, TAG_NAME_MAX, MAX_TAGS_PER_VIDEO, VIDEO_CATEGORIES, COPYRIGHTS, VIDEO_TITLE_MAX, VIDEO_DESCRIPTION_MAX, MAX_VIDEO_PARTS, DANMAKU_MODES, DANMAKU_SIZES, DANMAKU_TEXT_MAX, DANMAKU_SEGMENT_SECONDS, type TagLanguage, type VideoCategory, type Copyright, type DanmakuMode, type DanmakuSize } from './constants.ts';

import { MEDIA_TYPES } from './constants.ts';
import { STREAM_NOTE_CODES } from './subtitle-constants.ts';
export { MEDIA_TYPES, MAX_AUDIO_DURATION_S, AUDIO_ARTIST_MAX, AUDIO_SORTS, type MediaType, type MediaTarget, type AudioSort } from './constants.ts';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX, COLLECTION_VIDEOS_MAX, COLLECTION_VISIBILITIES } from './constants.ts';
export { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX, COLLECTION_VIDEOS_MAX, COLLECTIONS_PER_MEMBER, COLLECTION_VISIBILITIES, type CollectionVisibility } from './constants.ts';

export { ERROR_CODES, ERROR_STATUS, ERROR_MESSAGE_KEY, type ErrorCode, type ApiErrorBody } from './errors.ts';
import type { ApiErrorBody } from './errors.ts';
import { ROLES } from '../policy/policy.ts';
import { CATALOG_LOCALES } from '../i18n/locales.ts';
import { stripInvisibleFormatting } from '../validation/text.ts';

/**
 * Text people read (titles, descriptions, danmaku, comments, signatures, tags): bidi controls and
 * zero-width characters removed before any other rule (src/lib/validation/text.ts), so a limit
 * counts what shows and nothing stored reverses or hides what is shown around it.
 */
export const shownText = () => z.string().overwrite(stripInvisibleFormatting);

/**
 * Positive integer ids (KVID, UID) up to 2^53-1: a JSON number in a body; in a query string,
 * digits alone (the route middleware turns them into the number: src/lib/api/wire.ts).
 */
export const positiveId = z
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
/** What the video, track and photo answers add: the count for everyone, `isLiked` for a member. */
export const likeFacts = z.object({ likeCount: z.number(), isLiked: z.boolean().optional() });
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
export const tagNameSchema = z.object({ name: z.string(), isDefault: z.boolean(), isOriginalTagName: z.boolean() });
export const tagNameGroupSchema = z.object({ lang: z.enum(TAG_LANGUAGES), tagName: z.array(tagNameSchema) });
export const tagSchema = z.object({ tagId: z.number().int().positive(), tagNameList: z.array(tagNameGroupSchema) });
export type TagName = z.infer<typeof tagNameSchema>;
export type TagNameGroup = z.infer<typeof tagNameGroupSchema>;
export type Tag = z.infer<typeof tagSchema>;

/** The answer of a call that only succeeds or fails. */
export const okResponse = z.object({ success: z.literal(true) });

const tagNameText = shownText().trim().min(1, 'must not be empty').max(TAG_NAME_MAX, `at most ${TAG_NAME_MAX} characters`)
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
export const tagCreateResponse = z.object({ success: z.literal(true), tagId: z.number() });
export type TagCreateResponse = z.infer<typeof tagCreateResponse>;
export const tagSearchQuery = z.object({ tagName: z.string().trim().min(1).max(TAG_NAME_MAX) });
export const tagIdsBody = z.object({ tagId: z.array(positiveId).min(1).max(50) });
export const tagSearchResponse = z.object({ success: z.literal(true), result: z.array(tagSchema) });
export type TagSearchResponse = z.infer<typeof tagSearchResponse>;
export const tagListResponse = z.object({ success: z.boolean(), message: z.string().optional(), result: z.array(tagSchema) });
export type TagListResponse = z.infer<typeof tagListResponse>;

// ---- One video ----

/** Seek-preview tiles of one part (storyboard.jpg): a grid of tileWidth × tileHeight frames. */
export const storyboardSchema = z.object({
  url: z.string(), intervalSeconds: z.number(), columns: z.number(), rows: z.number(), tileWidth: z.number(), tileHeight: z.number(), count: z.number(),
});
export type Storyboard = z.infer<typeof storyboardSchema>;
export const videoPartSchema = z.object({
  id: z.number(),
  videoPartTitle: z.string(),
  /** The part's HLS master playlist (the lowest rung is published first); null until then. */
  link: z.string().nullable(),
  duration: z.number(),
  /** transcoding → playable (some rungs) → ready (full ladder and storyboard); or failed. */
  processing: z.enum(['waiting', 'transcoding', 'playable', 'ready', 'failed']),
  renditions: z.array(z.number()),
  poster: z.string().nullable(),
  storyboard: storyboardSchema.nullable(),
});
export type VideoPart = z.infer<typeof videoPartSchema>;
export const uploaderInfoSchema = z.object({
  uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string(), signature: z.string(), isFollowing: z.boolean(), isSelf: z.boolean(),
});
export type UploaderInfo = z.infer<typeof uploaderInfoSchema>;
export const videoDetailSchema = z.object({
  videoId: z.number(),
  videoPart: z.array(videoPartSchema),
  title: z.string(),
  image: z.string(),
  uploadDate: z.number(),
  watchedCount: z.number(),
  uploaderId: z.number(),
  duration: z.number(),
  description: z.string(),
  videoCategory: z.enum(VIDEO_CATEGORIES),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  originalLink: z.string().nullable(),
  videoTagList: z.array(tagSchema),
  uploaderInfo: uploaderInfoSchema,
  status: z.enum(['pending', 'approved']),
});
export type VideoDetail = z.infer<typeof videoDetailSchema>;
export const videoResponse = blockFlags.extend({ success: z.boolean(), message: z.string().optional(), video: videoDetailSchema.optional(), ...likeFacts.partial().shape });
export type VideoResponse = z.infer<typeof videoResponse>;

export const httpUrl = z.string().trim().max(500).url('must be a web address')
  .refine((url) => /^https?:\/\//i.test(url), 'must start with http:// or https://');
/** video/upload (commit). `duration` is never read from the browser: the server fills it from ffprobe. */
/** The metadata fields a commit and an edit (video/update) share, checked alike. */
export const videoTitle = shownText().trim().min(1, 'must not be empty').max(VIDEO_TITLE_MAX);
export const videoDescription = shownText().trim().max(VIDEO_DESCRIPTION_MAX);
/** A cover from video/cover/preUpload's image service; none means the poster frame. */
export const videoCover = z.string().max(300).nullish();
export const videoTagIds = z.array(positiveId).max(MAX_TAGS_PER_VIDEO);
export const videoUploadBody = z.object({
  title: videoTitle,
  description: videoDescription.default(''),
  image: videoCover,
  videoPart: z.array(z.object({
    mediaId: z.string().regex(/^[0-9a-f]{24}$/, 'is not a media id'),
    videoPartTitle: shownText().trim().max(VIDEO_TITLE_MAX).default(''),
  })).min(1).max(MAX_VIDEO_PARTS),
  videoCategory: z.enum(VIDEO_CATEGORIES),
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: shownText().trim().max(100).nullish(),
  originalLink: httpUrl.nullish(),
  pushToFeed: z.boolean().default(false),
  ensureOriginal: z.boolean().default(false),
  videoTagList: videoTagIds.default([]),
}).superRefine((body, ctx) => {
  if (body.copyright === 'repost' && !body.originalAuthor) ctx.addIssue({ code: 'custom', path: ['originalAuthor'], message: 'a repost names its original author' });
  if (body.copyright === 'repost' && !body.originalLink) ctx.addIssue({ code: 'custom', path: ['originalLink'], message: 'a repost links to the original' });
  if (body.copyright === 'original' && !body.ensureOriginal) ctx.addIssue({ code: 'custom', path: ['ensureOriginal'], message: 'confirm that the video is your own work' });
  const ids = body.videoPart.map((p) => p.mediaId);
  if (new Set(ids).size !== ids.length) ctx.addIssue({ code: 'custom', path: ['videoPart'], message: 'each part is a different file' });
});
export type VideoUploadBody = z.input<typeof videoUploadBody>;
export const videoUploadResponse = z.object({ success: z.literal(true), videoId: z.number() });
export type VideoUploadResponse = z.infer<typeof videoUploadResponse>;
export const videoIdBody = z.object({ videoId: positiveId });
/**
 * A reviewer's refusal of an item in a review queue: one of the review reasons and a note for
 * the uploader (needed with OTHER, which names nothing by itself).
 */
export const reviewRejection = {
  reason: z.enum(REVIEW_REJECTION_REASONS),
  note: shownText().transform((t) => t.normalize('NFC').replace(/\r\n?/g, '\n').trim()).pipe(z.string().max(REVIEW_NOTE_MAX)).default(''),
};
export const noteNeededWithOther = (body: { reason: string; note: string }) => body.reason !== 'OTHER' || body.note.length > 0;
const noteNeeded = { path: ['note'], message: 'say why when the reason is OTHER' };
export const videoRejectBody = videoIdBody.extend(reviewRejection).refine(noteNeededWithOther, noteNeeded);
/** What the uploader reads of a reviewer's refusal in their own lists (null: none). */
export const rejectionNote = z.string().nullable();
/**
 * video/update: the uploader (or staff) changes a video's metadata; a field left out stays as it
 * is, `image: null` goes back to the poster frame. An approved video whose public text or cover
 * changes goes back to review.
 */
export const videoUpdateBody = z.object({
  videoId: positiveId,
  title: videoTitle.optional(),
  description: videoDescription.optional(),
  image: videoCover,
  videoCategory: z.enum(VIDEO_CATEGORIES).optional(),
  videoTagList: videoTagIds.optional(),
});
export type VideoUpdateBody = z.input<typeof videoUpdateBody>;
export const videoUpdateResponse = z.object({
  success: z.literal(true),
  status: z.enum(['pending', 'approved']),
  /** The edit sent an approved video back to review. */
  backToReview: z.boolean(),
});
/** A signed address of the image service for one cover upload. */
export const coverPreUploadResponse = z.object({ success: z.literal(true), result: z.object({ signedUrl: z.string(), fileName: z.string() }) });
export type CoverPreUploadResponse = z.infer<typeof coverPreUploadResponse>;

// ---- Lists and search ----
export const homeQuery = pagedQuery();
export const userVideosQuery = pagedQuery().extend({ uid: positiveId });
export const searchQuery = pagedQuery().extend({ keyword: z.string().trim().min(1, 'must not be empty').max(100) });
export const tagSearchVideosBody = pagedQuery().extend({ tagId: z.array(positiveId).min(1).max(10) });
export const categoryQuery = pagedQuery().extend({ category: z.enum(VIDEO_CATEGORIES) });
export function pagedQuery() {
  return z.object({
    page: z.number().int().min(1).max(10_000).default(1),
    pageSize: z.number().int().min(1).max(100).default(30),
  });
}

/** A video waiting for review, with what the reviewer needs to judge it. */
export const pendingVideoSchema = videoThumb.extend({
  copyright: z.enum(COPYRIGHTS),
  originalAuthor: z.string().nullable(),
  originalLink: z.string().nullable(),
  tags: z.array(tagSchema),
  parts: z.array(videoPartSchema),
});
export type PendingVideo = z.infer<typeof pendingVideoSchema>;
export const pendingVideosResponse = z.object({ success: z.literal(true), videosCount: z.number(), videos: z.array(pendingVideoSchema) });
export type PendingVideosResponse = z.infer<typeof pendingVideosResponse>;

/**
 * Something of an uploaded file's subtitle or attachment streams that did not become a track or
 * a font (the processing report): the stream's number among the file's subtitle streams (or
 * attachments, for fonts), why, and the codec or file name when known.
 */
export const streamNoteSchema = z.object({ stream: z.number(), code: z.enum(STREAM_NOTE_CODES), codec: z.string().nullable() });
export type StreamNote = z.infer<typeof streamNoteSchema>;
/** One of the uploader's own videos ("my videos"), with where it stands and what it gathered. */
export const myVideoSchema = videoThumb.extend({
  state: z.enum(MY_VIDEO_STATES),
  /** Why it was refused (state 'rejected'), when known. */
  rejectionReason: z.enum([...REJECTION_REASONS, ...REVIEW_REJECTION_REASONS]).nullable(),
  /** The reviewer's note to the uploader, with a review reason. */
  rejectionNote: rejectionNote,
  /** The uploader's own cover (null: the poster frame, `poster`, is shown). */
  cover: z.string().nullable(),
  poster: z.string().nullable(),
  danmakuCount: z.number(),
  commentCount: z.number(),
  tags: z.array(tagSchema),
  /** Whether the uploader can still edit or delete it (not once a reviewer removed it). */
  editable: z.boolean(),
  /** How many parts it has (each can carry its own subtitle tracks). */
  partCount: z.number().int().min(1),
  /** The processing report of its parts' subtitle and attachment streams (bitmap subtitles, refused fonts…). */
  subtitleNotes: z.array(streamNoteSchema.extend({ part: z.number() })),
});
export type MyVideo = z.infer<typeof myVideoSchema>;
export const myVideosQuery = pagedQuery().extend({ pageSize: z.number().int().min(1).max(50).default(20) });
export const myVideosResponse = z.object({ success: z.literal(true), videosCount: z.number(), videos: z.array(myVideoSchema) });
export type MyVideosResponse = z.infer<typeof myVideosResponse>;
export const watchResponse = z.object({ success: z.literal(true), counted: z.boolean(), watchedCount: z.number() });
export type WatchResponse = z.infer<typeof watchResponse>;


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
/** A new code; staff have no limit, members one a week from a week-old account (else COOLING_DOWN, ACCOUNT_TOO_NEW). */
export const invitationCodeCreateResponse = z.object({ success: z.literal(true), isCoolingDown: z.boolean(), invitationCodeResult: invitationCode });

// ---- User family (SPEC §7 "User"; field names from API-NOTES) ----
const email = z.string().trim().min(3).max(254);
const clientLanguage = z.enum(CATALOG_LOCALES).optional();

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
/** The first-run page's form: the first administrator, with the one-time token of the server's log. */
export const firstRunBody = z.object({
  token: z.string().trim().min(1).max(200),
  email,
  password: z.string().min(1).max(1000),
  username: z.string().max(200),
  userNickname: z.string().max(200).optional(),
  clientLanguage,
});
export type FirstRunBody = z.input<typeof firstRunBody>;
export const firstRunStateResponse = z.object({ success: z.literal(true), open: z.literal(true) });
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
  page: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(100).default(20),
});
export const updateRolesBody = z.object({ uid: positiveId, newRoles: z.array(z.enum(ROLES)).min(1).max(5) });
/** The roles the target has now (normalised: 'blocked' alone, else known roles). */
export const rolesResponse = z.object({ success: z.literal(true), uid: z.number(), roles: z.array(z.enum(ROLES)) });

/** Whether an address has an account (existsCheck), a name is free, an invitation code unused. */
export const emailExistsResponse = z.object({ success: z.literal(true), exists: z.boolean() });
export const usernameAvailableResponse = z.object({ success: z.literal(true), isAvailableUsername: z.boolean() });
export const invitationCodeAvailableResponse = z.object({ success: z.literal(true), isAvailableInvitationCode: z.boolean() });
/** A code was mailed (a cool-down is the error COOLING_DOWN, with isCoolingDown and Retry-After). */
export const codeSentResponse = z.object({ success: z.literal(true), isCoolingDown: z.boolean() });
export type CodeSentResponse = z.infer<typeof codeSentResponse>;

const authenticatorType = z.enum(['none', 'totp', 'email']);
export const selfUserInfo = z.object({
  uid: z.number(),
  email: z.string().nullable(),
  roles: z.array(z.string()),
  authenticatorType,
  userCreateDateTime: z.number(),
  username: z.string(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  signature: z.string(),
  gender: z.string(),
});
export type SelfUserInfo = z.infer<typeof selfUserInfo>;
/** Login and registration: the new session is in the cookies. */
export const loginResponse = z.object({ success: z.literal(true), uid: z.number() });
export type LoginResponse = z.infer<typeof loginResponse>;
/** A login's error; SECOND_FACTOR_REQUIRED (the password was right) names the factor to ask for. */
export type LoginErrorBody = ApiErrorBody & { authenticatorType?: 'totp' | 'email' };
export const selfResponse = z.object({ success: z.literal(true), result: selfUserInfo });
export type SelfResponse = z.infer<typeof selfResponse>;
export const checkResponse = z.object({ success: z.literal(true), userTokenOk: z.boolean() });
export type CheckResponse = z.infer<typeof checkResponse>;

export const totpConfirmBody = z.object({ clientOtp: z.string().trim().min(6).max(64), otpAuth: z.string().max(500).optional() });
export const totpDeleteBody = z.object({ clientOtp: z.string().trim().min(6).max(64), password: z.string().min(1).max(1000) });
/** TOTP setup started: the secret, once, as an otpauth:// URI. */
export const totpCreateResponse = z.object({
  success: z.literal(true), isExists: z.literal(false), existsAuthenticatorType: z.null(), result: z.object({ otpAuth: z.string() }),
});
export type TotpCreateResponse = z.infer<typeof totpCreateResponse>;
/** The 409 CONFLICT of a second factor's creation (one at a time): the error, and the factor the account has. */
export const authenticatorExistsAnswer = z.object({
  success: z.literal(false), code: z.literal('CONFLICT'), message: z.string(), requestId: z.string().optional(),
  isExists: z.literal(true), existsAuthenticatorType: z.enum(['totp', 'email']), result: z.null(),
});
export type AuthenticatorExistsAnswer = z.infer<typeof authenticatorExistsAnswer>;
export const emailAuthenticatorCreateResponse = z.object({ success: z.literal(true), isExists: z.literal(false), existsAuthenticatorType: z.null() });
export const totpConfirmResponse = z.object({ success: z.literal(true), result: z.object({ backupCode: z.array(z.string()), recoveryCode: z.string() }) });
export type TotpConfirmResponse = z.infer<typeof totpConfirmResponse>;
export const have2FAResponse = z.object({
  success: z.literal(true), have2FA: z.boolean(), type: authenticatorType, totpCreationDateTime: z.number().nullable(),
});
export type Have2FAResponse = z.infer<typeof have2FAResponse>;

// ---- Profile and its review ----
export const GENDERS = ['', 'male', 'female', 'other'] as const;
export const updateInfoBody = z.object({
  username: z.string().max(200).optional(),
  userNickname: z.string().max(200).optional(),
  signature: shownText().max(200, 'at most 200 characters').optional(),
  gender: z.enum(GENDERS).optional(),
  userBirthday: z.union([z.literal(''), z.iso.date()]).optional(),
  label: z.array(z.object({ id: z.number().optional(), labelName: shownText().trim().min(1).max(20) })).max(10).optional(),
  userWebsite: z.object({ websiteName: shownText().max(40), websiteUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/ }).max(300)]) }).optional(),
});
export type UpdateInfoBody = z.input<typeof updateInfoBody>;
export const reviewQuery = pageQuery.extend({
  isOnlyShowUserInfoUpdatedAfterReview: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  sortBy: z.enum(['createDateTime', 'editDateTime', 'username', 'uid']).default('editDateTime'),
  sortOrder: z.enum(['ascend', 'descend']).default('descend'),
});
export const uidBody = z.object({ uid: positiveId });
/** What anyone may see of a user (never the e-mail address). */
const profileFields = z.object({
  uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string(), signature: z.string(),
  gender: z.string(), userBirthday: z.string(), label: z.array(z.object({ id: z.number(), labelName: z.string() })),
  userWebsite: z.object({ websiteName: z.string(), websiteUrl: z.string() }), userCreateDateTime: z.number(), roles: z.array(z.string()),
});
export const publicProfile = profileFields.extend({
  userBannerImage: z.string(), isFollowing: z.boolean(), isSelf: z.boolean(),
  /** How many follow this user, and how many they follow. */
  followerCount: z.number(), followingCount: z.number(),
});
export type PublicProfile = z.infer<typeof publicProfile>;
/** user/info: the profile and the block flags between the viewer and this user. */
export const userInfoResponse = blockFlags.extend({ success: z.literal(true), result: publicProfile });
export const reviewItem = profileFields.extend({ editDateTime: z.number(), isUpdatedAfterReview: z.boolean() });
export type ReviewItem = z.infer<typeof reviewItem>;
export const reviewQueueResponse = z.object({ success: z.literal(true), result: z.array(reviewItem), totalCount: z.number() });
/** Banned users, most recently changed first. */
export const blockedUsersResponse = z.object({
  success: z.literal(true), totalCount: z.number(),
  result: z.array(z.object({ uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string(), editDateTime: z.number() })),
});

// ---- Media jobs (administrators) ----
export const JOB_STATUSES = ['queued', 'running', 'failed', 'done'] as const;
export const jobListQuery = pageQuery.extend({ status: z.enum(JOB_STATUSES).default('failed') });
export const jobListResponse = z.object({
  success: z.literal(true),
  /** How many jobs are in each state now. */
  counts: z.object({ queued: z.number(), running: z.number(), failed: z.number(), done: z.number() }),
  totalCount: z.number(),
  /** Attempts a job gets before it stays failed. */
  maxAttempts: z.number(),
  /** Newest first; `lastError` is the last failed attempt's message (kept until the job succeeds). */
  jobs: z.array(z.object({
    id: z.number(), kind: z.string(), status: z.enum(JOB_STATUSES), attempts: z.number(),
    lastError: z.string().nullable(), mediaId: z.string().nullable(), createdDateTime: z.number(), runAfterDateTime: z.number(), lockedUntilDateTime: z.number().nullable(),
  })),
});
export const jobIdBody = z.object({ jobId: positiveId });

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
export const userSettings = z.object(userSettingsShape);
export type UserSettings = z.infer<typeof userSettings>;
/** user/settings/update takes exactly one field. */
export const userSettingsUpdateBody = userSettings.partial().strict()
  .refine((value) => Object.keys(value).length === 1, 'exactly one setting per update');
export const userSettingsResponse = z.object({ success: z.literal(true), userSettings });

/** A signed address of the image service for one avatar upload (the answer a cover's preUpload gives too). */
export const preUploadResponse = coverPreUploadResponse;
export type PreUploadResponse = z.infer<typeof preUploadResponse>;
/** Largest avatar or cover file the image service takes. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const imageUploadResponse = z.object({ success: z.literal(true), url: z.string() });
export type ImageUploadResponse = z.infer<typeof imageUploadResponse>;

export const sendLoginCodeBody = z.object({ email, password: z.string().min(1).max(1000), clientLanguage });
export const deleteEmailAuthenticatorBody = z.object({ password: z.string().min(1).max(1000), verificationCode: z.string().trim().regex(/^\d{6}$/) });

// ---- Video pipeline ----
export const mediaStatusQuery = z.object({ mediaId: z.string().regex(/^[0-9a-f]{24}$/) });
export const mediaStatusResponse = z.object({
  success: z.literal(true),
  mediaId: z.string(),
  /** uploaded → probed → transcoding → playable (lowest rung out) → ready; or rejected / failed. */
  status: z.enum(['uploaded', 'probed', 'transcoding', 'playable', 'ready', 'rejected', 'failed']),
  // The probe's refusals: videos', audio's and photos'.
  reason: z.enum(['NOT_A_VIDEO', 'NOT_AUDIO', 'TOO_LONG', 'CORRUPT', 'NOT_AN_IMAGE', 'UNSUPPORTED_IMAGE_FORMAT', 'IMAGE_TOO_LARGE', 'TOO_MANY_PIXELS']).nullable(),
  /** Milliseconds, from ffprobe (never from the browser). */
  duration: z.number().nullable(),
  width: z.number().nullable(),
  height: z.number().nullable(),
  /** Heights of the published HLS rungs, lowest first. */
  renditions: z.array(z.number()),
  manifestUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  /** The file's subtitle and attachment streams that did not become tracks or fonts (bitmap subtitles, refused fonts…); empty until the transcode read them. */
  subtitleNotes: z.array(streamNoteSchema),
});
export type MediaStatusResponse = z.infer<typeof mediaStatusResponse>;

// ---- Danmaku, comments and history: on a video, an audio track or a photo post ----
/** What `videoId` names in danmaku, comment and history calls; a video when absent. */
export const mediaType = z.enum(MEDIA_TYPES).default('video').describe('What the id names: a video (the default), an audio track or a photo post');

// ---- Danmaku ----

export const danmakuEmitBody = z.object({
  videoId: positiveId,
  mediaType,
  time: z.number().finite().min(0),
  // Counted in characters as people see them (code points), after trimming.
  text: shownText().transform((t) => t.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim())
    .refine((t) => [...t].length >= 1, 'must not be empty').refine((t) => [...t].length <= DANMAKU_TEXT_MAX, `at most ${DANMAKU_TEXT_MAX} characters`),
  color: z.string().regex(/^#?[0-9a-fA-F]{6}$/, 'hex colour').transform((c) => c.replace('#', '').toLowerCase()),
  fontSize: z.enum(DANMAKU_SIZES).default('medium'),
  mode: z.enum(DANMAKU_MODES).default('rtl'),
  enableRainbow: z.boolean().default(false),
});
export type DanmakuEmitBody = z.input<typeof danmakuEmitBody>;
/** One danmaku as everyone receives it: never the sender's id. */
export const danmakuSchema = z.object({
  id: z.number(), time: z.number(), text: z.string(), color: z.string(), fontSize: z.enum(DANMAKU_SIZES), mode: z.enum(DANMAKU_MODES),
  enableRainbow: z.boolean(), editDateTime: z.number(),
});
export type Danmaku = z.infer<typeof danmakuSchema>;
export const danmakuEmitResponse = z.object({ success: z.literal(true), danmaku: danmakuSchema });
export type DanmakuEmitResponse = z.infer<typeof danmakuEmitResponse>;
export const danmakuQuery = z.object({ videoId: positiveId, mediaType, segment: z.number().int().min(0).max(10_000).optional() });
export const danmakuListResponse = z.object({
  success: z.literal(true),
  danmaku: z.array(danmakuSchema),
  /** The segment answered (absent: the whole pool), its length and how many the video has. */
  segment: z.number().optional(),
  segmentSeconds: z.number(),
  segmentCount: z.number(),
});
export type DanmakuListResponse = z.infer<typeof danmakuListResponse>;
/**
 * GET video/danmaku/live: the video, and the last danmaku id received when resuming. EventSource
 * sends that as the Last-Event-ID header when it reconnects by itself (the header wins); a client
 * that opens a new stream passes it here.
 */
export const danmakuLiveQuery = z.object({ videoId: positiveId, lastEventId: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional() });
/** The live stream's `watching` event: how many have the video open with the stream connected, across every server process. */
export const danmakuWatchingEvent = z.object({ watching: z.number().int().min(0) });
export type DanmakuWatchingEvent = z.infer<typeof danmakuWatchingEvent>;

// ---- Comments ----
export const COMMENT_TEXT_MAX = 20_000;
/** `parentId`: the comment answered; a reply to a reply joins the same thread (issue 27). */
export const commentEmitBody = z.object({ videoId: positiveId, mediaType, text: shownText().min(1).max(COMMENT_TEXT_MAX), parentId: positiveId.optional() });
/** hot: the most upvoted (and answered) first; new: the newest first. A pinned comment always leads. */
export const COMMENT_SORTS = ['hot', 'new'] as const;
export type CommentSort = (typeof COMMENT_SORTS)[number];
/** Replies shown under each top-level comment of a page; the rest come from video/comment/replies. */
export const THREAD_PREVIEW_REPLIES = 3;
export const commentListQuery = z.object({
  videoId: positiveId,
  mediaType,
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(20),
  sort: z.enum(COMMENT_SORTS).default('new'),
});
/** A page of one thread, oldest reply first. */
export const commentRepliesQuery = z.object({
  videoId: positiveId,
  mediaType,
  parentId: positiveId,
  page: z.number().int().min(1).max(100_000).default(1),
  pageSize: z.number().int().min(1).max(50).default(20),
});
/** The uploader pins (or unpins) one comment of their item; pinning another replaces it. */
export const commentPinBody = z.object({ videoId: positiveId, mediaType, id: positiveId, pinned: z.boolean() });
/** Who the comment editor offers after "@": people the writer follows, and people in the thread. */
export const mentionCandidatesQuery = z.object({ videoId: positiveId, mediaType, parentId: positiveId.optional(), prefix: z.string().trim().max(20).default('') });
export const mentionCandidate = z.object({ uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string() });
export const mentionCandidatesResponse = z.object({ success: z.literal(true), users: z.array(mentionCandidate) });
export type MentionCandidatesResponse = z.infer<typeof mentionCandidatesResponse>;
export const commentVoteBody = z.object({ videoId: positiveId, mediaType, id: positiveId });
/** A comment is named "<videoId>.<floor>"; the route must be of the video the body names. */
export const commentDeleteBody = z.object({ videoId: positiveId, mediaType, commentRoute: z.string().regex(/^\d{1,15}\.\d{1,9}$/, 'is "<videoId>.<floor>"') })
  .refine((body) => Number(body.commentRoute.split('.')[0]) === body.videoId, { path: ['commentRoute'], message: 'belongs to another video' });
export const videoCommentSchema = z.object({
  id: z.number(),
  /** "<videoId>.<floor>" */
  commentRoute: z.string(),
  videoId: z.number(),
  uid: z.number(),
  userInfo: z.object({ username: z.string(), userNickname: z.string().nullable(), avatar: z.string() }),
  emitTime: z.number(),
  /** Sanitised HTML: b, strong, i, em, u, s, del, br, p only; no attributes. */
  text: z.string(),
  isUpvote: z.boolean(),
  isDownvote: z.boolean(),
  upvoteCount: z.number(),
  downvoteCount: z.number(),
  commentIndex: z.number(),
  /** The top-level comment this one answers; null for a top-level comment. */
  parentId: z.number().nullable(),
  /** A deleted comment still shown because replies hang under it: no author, no text. */
  isDeleted: z.boolean(),
  isPinned: z.boolean(),
  /** Members the text mentions ("@username" in the text links to them). */
  mentions: z.array(z.object({ uid: z.number(), username: z.string() })),
});
export type VideoComment = z.infer<typeof videoCommentSchema>;
/** A top-level comment with how many replies it has (those the viewer may see) and the first of them. */
export const commentThreadSchema = videoCommentSchema.extend({ replyCount: z.number(), replies: z.array(videoCommentSchema) });
export type CommentThread = z.infer<typeof commentThreadSchema>;
export const commentRepliesResponse = z.object({
  success: z.literal(true),
  replyCount: z.number(),
  hiddenCommentCount: z.number(),
  replies: z.array(videoCommentSchema),
});
export type CommentRepliesResponse = z.infer<typeof commentRepliesResponse>;
export const commentEmitResponse = z.object({ success: z.literal(true), comment: videoCommentSchema });
export type CommentEmitResponse = z.infer<typeof commentEmitResponse>;
export const commentListResponse = z.object({
  success: z.literal(true),
  /** Every comment but those of people the viewer blocked (pages are counted from it). */
  videoCommentCount: z.number(),
  /** How many comments of this page the viewer's block keywords or expressions left out. */
  hiddenCommentCount: z.number(),
  videoCommentList: z.array(commentThreadSchema),
});
export type CommentListResponse = z.infer<typeof commentListResponse>;
/** A like of a video, track or photo post (issue 27): both calls are idempotent. */
export const likeBody = z.object({ videoId: positiveId, mediaType });
export const likeResponse = z.object({ success: z.literal(true), likeCount: z.number(), isLiked: z.boolean() });
export type LikeResponse = z.infer<typeof likeResponse>;
export const commentVoteResponse = z.object({ success: z.literal(true), upvoteCount: z.number(), downvoteCount: z.number(), isUpvote: z.boolean(), isDownvote: z.boolean() });
export type CommentVoteResponse = z.infer<typeof commentVoteResponse>;

// ---- History ----
export const historyRecordBody = z.object({ videoId: positiveId, mediaType, anchor: z.number().finite().min(0).max(24 * 3600) });
export const historyAnchorQuery = z.object({ videoId: positiveId, mediaType });
/** `show=liked` keeps what the member likes (issue 27). */
export const historyFilterQuery = z.object({ videoTitle: z.string().trim().max(100).optional(), show: z.enum(['all', 'liked']).default('all') });
export const historyItem = videoThumb.extend({
  /** What `id` (and `videoId`) names: a video, an audio track (image: its cover), or a photo post (issue 13; its anchor and duration are 0). */
  category: z.enum(['video', 'audio', 'photo']),
  id: z.number(),
  /** The last playback position, in seconds. */
  anchor: z.number(),
  lastUpdateDateTime: z.number(),
});
export type HistoryItem = z.infer<typeof historyItem>;
export const historyListResponse = z.object({ success: z.literal(true), result: z.array(historyItem) });
export type HistoryListResponse = z.infer<typeof historyListResponse>;
export const historyRecordResponse = z.object({ success: z.literal(true), recorded: z.boolean() });
export const historyAnchorResponse = z.object({ success: z.literal(true), anchor: z.number().nullable() });

// ---- Block lists (SPEC §7 "Block"; fields and limits from API-NOTES) ----
import { BLOCK_LIST_TYPES, BLOCK_KEYWORD_MAX, BLOCK_REGEX_MAX } from '../validation/block-lists.ts';
export { BLOCK_LIST_TYPES, BLOCK_LIST_LIMITS, BLOCK_KEYWORD_MAX, BLOCK_REGEX_MAX, type BlockListType } from '../validation/block-lists.ts';
const blockText = (max: number) => shownText().transform((t) => t.normalize('NFC').replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim())
  .refine((t) => t.length >= 1, 'must not be empty').refine((t) => [...t].length <= max, `at most ${max} characters`);
export const blockUserBody = z.object({ blockUid: positiveId });
export const hideUserBody = z.object({ hideUid: positiveId });
export const blockTagBody = z.object({ tagId: positiveId });
export const blockKeywordBody = z.object({ blockKeyword: blockText(BLOCK_KEYWORD_MAX) });
export const blockRegexBody = z.object({ blockRegex: blockText(BLOCK_REGEX_MAX) });
export type BlockBodySchema = typeof blockUserBody | typeof hideUserBody | typeof blockTagBody | typeof blockKeywordBody | typeof blockRegexBody;
export const blockListQuery = z.object({
  type: z.enum(BLOCK_LIST_TYPES),
  page: z.number().int().min(1).max(10_000).default(1),
  pageSize: z.number().int().min(1).max(500).default(50),
});
export const blockListItem = z.object({
  type: z.enum(BLOCK_LIST_TYPES),
  /** The uid, tag id, keyword or expression, as text. */
  value: z.string(),
  createDateTime: z.number(),
  /** Users (block, hide): who. */
  uid: z.number().nullable(),
  username: z.string().nullable(),
  userNickname: z.string().nullable(),
  avatar: z.string(),
  /** Tags: the tag with its names. */
  tag: tagSchema.nullable(),
});
export type BlockListItem = z.infer<typeof blockListItem>;
export const blockListResponse = z.object({ success: z.literal(true), blocklistCount: z.number(), limit: z.number(), result: z.array(blockListItem) });
export type BlockListResponse = z.infer<typeof blockListResponse>;
/** A block call's answer; `added` is false when the entry was already there (idempotent). */
export const blockChangeResponse = z.object({ success: z.literal(true), added: z.boolean().optional(), removed: z.boolean().optional() });
export type BlockChangeResponse = z.infer<typeof blockChangeResponse>;

// ---- Feed (SPEC §7 "Feed"; fields from API-NOTES) ----
/** An opaque position in a newest-first list: where the next page starts. */
export const feedCursor = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'is not a cursor');
export const followBody = z.object({ followingUid: positiveId });
export const unfollowBody = z.object({ unfollowingUid: positiveId });
/** A follow or unfollow: the state afterwards (the same when it was already so) and the followed user's count. */
export const followChangeResponse = z.object({ success: z.literal(true), isFollowing: z.boolean(), followerCount: z.number() });
export type FollowChangeResponse = z.infer<typeof followChangeResponse>;
const cursorPage = (max: number, byDefault: number) => z.object({
  cursor: feedCursor.optional(),
  pageSize: z.number().int().min(1).max(max).default(byDefault),
});
export const followPeopleQuery = cursorPage(100, 30).extend({ uid: positiveId });
export const followPerson = z.object({
  uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string(), signature: z.string(),
  /** When the follow began (epoch ms). */
  followDateTime: z.number(),
  /** Whether the viewer follows this person (false for guests and for the viewer themself). */
  isFollowing: z.boolean(),
});
export type FollowPerson = z.infer<typeof followPerson>;
/** A page of a user's followers or followings, newest follow first; nextCursor null on the last page. */
export const followPeopleResponse = z.object({ success: z.literal(true), result: z.array(followPerson), nextCursor: z.string().nullable() });
export type FollowPeopleResponse = z.infer<typeof followPeopleResponse>;
export const feedQuery = cursorPage(50, 20);

// ---- Collections (favourites, playlists) ----

const title = shownText().trim().min(1, 'must not be empty').max(COLLECTION_TITLE_MAX, `at most ${COLLECTION_TITLE_MAX} characters`);
const description = shownText().trim().max(COLLECTION_DESCRIPTION_MAX, `at most ${COLLECTION_DESCRIPTION_MAX} characters`);
const visibility = z.enum(COLLECTION_VISIBILITIES);

export const collectionCreateBody = z.object({
  title, description: description.default(''), visibility: visibility.default('private'),
  /** Put this video (or track, or photo post: mediaType) in it at once (the "new collection" of a video, track or post page does). */
  videoId: positiveId.optional(),
  mediaType,
});
/** Only the fields sent change; coverVideoId null goes back to the first available video's poster. */
export const collectionUpdateBody = z.object({
  collectionId: positiveId, title: title.optional(), description: description.optional(), visibility: visibility.optional(),
  coverVideoId: positiveId.nullable().optional(),
});
export const collectionIdBody = z.object({ collectionId: positiveId });
/** A video, or a track or photo post (mediaType), in a collection. */
export const collectionVideoBody = z.object({ collectionId: positiveId, videoId: positiveId, mediaType });
const collectionItem = z.object({ mediaType: z.enum(MEDIA_TYPES), id: positiveId });
/**
 * The new order, first to last (those not named keep their order after them): `videoIds` names
 * videos only; `items` names items of every kind. One of them.
 */
export const collectionReorderBody = z.object({
  collectionId: positiveId,
  videoIds: z.array(positiveId).min(1).max(COLLECTION_VIDEOS_MAX).refine((ids) => new Set(ids).size === ids.length, 'must not repeat a video').optional(),
  items: z.array(collectionItem).min(1).max(COLLECTION_VIDEOS_MAX)
    .refine((items) => new Set(items.map((i) => `${i.mediaType}:${i.id}`)).size === items.length, 'must not repeat an item').optional(),
}).refine((body) => !!body.videoIds !== !!body.items, { message: 'give videoIds or items', path: ['items'] });
export const collectionListQuery = z.object({ uid: positiveId });
export const collectionGetQuery = z.object({
  collectionId: positiveId,
  page: z.number().int().min(1).max(COLLECTION_VIDEOS_MAX).default(1),
  pageSize: z.number().int().min(1).max(100).default(50),
});
export const collectionContainingQuery = z.object({ videoId: positiveId, mediaType });

export const collectionSummary = z.object({
  collectionId: positiveId,
  ownerUid: positiveId,
  title: z.string(),
  description: z.string(),
  visibility,
  /** The chosen video's poster, else the first available item's picture (a poster, a track's cover, a post's first image); '' when none. */
  cover: z.string(),
  coverVideoId: positiveId.nullable(),
  /** Items (videos, tracks, posts) one can open; those deleted or no longer approved are counted apart. */
  videoCount: z.number(),
  unavailableCount: z.number(),
  createdAt: z.number(),
  updatedAt: z.number(),
});
export type CollectionSummary = z.infer<typeof collectionSummary>;

export const collectionOwner = z.object({ uid: positiveId, username: z.string(), userNickname: z.string().nullable() });
export const collectionListResponse = z.object({ success: z.literal(true), collections: z.array(collectionSummary) });
export type CollectionListResponse = z.infer<typeof collectionListResponse>;
export const collectionResponse = z.object({ success: z.literal(true), collection: collectionSummary });
// A collection's page (its items of every kind): contract-items.ts.
export const collectionVideoChangeResponse = z.object({
  success: z.literal(true),
  /** addVideo: false when it was there already; removeVideo: false when it was not there. */
  changed: z.boolean(),
  videoCount: z.number(),
});
export const collectionDoneResponse = z.object({ success: z.literal(true) });
export const collectionContainingResponse = z.object({ success: z.literal(true), collectionIds: z.array(positiveId) });

// ---- Notifications (issue 27) ----
import { NOTIFICATION_KINDS, NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS, NOTIFICATION_TARGET_TYPES } from '../notifications/kinds.ts';
export { NOTIFICATION_KINDS, NOTIFICATION_CATEGORIES, NOTIFICATION_CHANNELS, CATEGORY_OF, NOTIFICATION_ACTORS_SHOWN, STAFF_ONLY_KINDS, type NotificationKind, type NotificationCategory, type NotificationChannel, type NotificationTargetType } from '../notifications/kinds.ts';

/** `kind` names a tab of the message centre (reply, mention, like, system); without it, every kind. */
export const notificationListQuery = z.object({
  cursor: feedCursor.optional(),
  kind: z.enum(NOTIFICATION_CATEGORIES).optional(),
  pageSize: z.number().int().min(1).max(50).default(20),
});
export const notificationActor = z.object({ uid: z.number(), username: z.string(), userNickname: z.string().nullable(), avatar: z.string() });
export const notificationSchema = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  isRead: z.boolean(),
  /** Epoch ms; an aggregated entry's newest event. */
  createdAt: z.number(),
  /** The newest few actors (up to 3); `actorCount` counts them all. */
  actors: z.array(notificationActor),
  actorCount: z.number(),
  /** What it is about (null when nothing: a system message); `title` as it was when it happened. */
  target: z.object({ type: z.enum(NOTIFICATION_TARGET_TYPES), id: z.number(), title: z.string().nullable() }).nullable(),
  /** The sentence shown, in the caller's language. */
  text: z.string(),
  /** A quoted comment or the reviewer's note, when there is one. */
  excerpt: z.string().nullable(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationListResponse = z.object({
  success: z.literal(true), notifications: z.array(notificationSchema), nextCursor: z.string().nullable(), unreadCount: z.number(),
});
export type NotificationListResponse = z.infer<typeof notificationListResponse>;
/** `unreadCount` counts up to 100 (the bell shows “99+” past 99). */
export const notificationUnreadResponse = z.object({ success: z.literal(true), unreadCount: z.number() });
export type NotificationUnreadResponse = z.infer<typeof notificationUnreadResponse>;
/** Either the ids to mark read (one's own; others' are ignored) or all of them. */
export const notificationReadBody = z.union([
  z.object({ ids: z.array(positiveId).min(1).max(100) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);
export const notificationSettingsSchema = z.record(z.enum(NOTIFICATION_KINDS), z.enum(NOTIFICATION_CHANNELS));
export const notificationSettingsResponse = z.object({ success: z.literal(true), settings: z.object(Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, z.enum(NOTIFICATION_CHANNELS)])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodEnum<{ site: 'site'; email: 'email'; off: 'off' }>>) });
export type NotificationSettingsResponse = z.infer<typeof notificationSettingsResponse>;
export const notificationSettingsBody = z.object({ kind: z.enum(NOTIFICATION_KINDS), channel: z.enum(NOTIFICATION_CHANNELS) });
/** The live stream's event: how many are unread now. */
export const notificationUnreadEvent = z.object({ unreadCount: z.number() });
export const notificationUnsubscribeQuery = z.object({ token: z.string().regex(/^[A-Za-z0-9_.-]{1,200}$/, 'is not a token') });
