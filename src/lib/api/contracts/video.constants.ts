/** The video catalogue's plain values (tags, categories, limits), without zod: what the browser imports. */
export const TAG_LANGUAGES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'other'] as const;
export type TagLanguage = (typeof TAG_LANGUAGES)[number];
export const TAG_NAME_MAX = 30;
export const MAX_TAGS_PER_VIDEO = 10;

export const VIDEO_CATEGORIES = ['anime', 'music', 'otomad', 'tech', 'design', 'game', 'misc'] as const;
export type VideoCategory = (typeof VIDEO_CATEGORIES)[number];
export const COPYRIGHTS = ['original', 'authorized-repost', 'repost'] as const;
export type Copyright = (typeof COPYRIGHTS)[number];
export const VIDEO_TITLE_MAX = 80;
export const VIDEO_DESCRIPTION_MAX = 2000;
export const MAX_VIDEO_PARTS = 20;
/**
 * Where one of the uploader's own videos stands ("my videos"): its files are still being
 * processed, it waits for review, it is public, or it was refused (a file the pipeline refused,
 * or a reviewer removed it).
 */
export const MY_VIDEO_STATES = ['processing', 'pending', 'approved', 'rejected'] as const;
export type MyVideoState = (typeof MY_VIDEO_STATES)[number];
/** Why a video was refused: the pipeline's reasons for its file, or a reviewer's removal. */
export const REJECTION_REASONS = ['NOT_A_VIDEO', 'TOO_LONG', 'CORRUPT', 'REMOVED_BY_REVIEWER'] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];
