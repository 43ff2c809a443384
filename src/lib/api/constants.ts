/**
 * The contract's plain values (limits, enumerations) without zod, so browser code can import
 * them without pulling the schema library into its bundle. contract.ts re-exports them.
 */
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
/**
 * Why a reviewer refuses a video, track or photo post from the review queue; the uploader reads
 * it (and the reviewer's note, at most REVIEW_NOTE_MAX characters) in their own lists.
 */
export const REVIEW_REJECTION_REASONS = ['COPYRIGHT', 'INAPPROPRIATE', 'SPAM', 'MISLEADING', 'LOW_QUALITY', 'WRONG_CATEGORY', 'OTHER'] as const;
export type ReviewRejectionReason = (typeof REVIEW_REJECTION_REASONS)[number];
export const REVIEW_NOTE_MAX = 500;

/**
 * What danmaku, comments and history can be on (the `mediaType` of those calls): a video, an
 * audio track or a photo post; the id field (`videoId`) names one of that type.
 */
export const MEDIA_TYPES = ['video', 'audio', 'photo'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
/** One thing danmaku, comments and history are on. */
export interface MediaTarget { type: MediaType; id: number }

/** Audio (issue 13): the longest track, the longest credits line, and the list orders of /audio. */
export const MAX_AUDIO_DURATION_S = 7200;
export const AUDIO_ARTIST_MAX = 100;
export const AUDIO_SORTS = ['newest', 'popular'] as const;
export type AudioSort = (typeof AUDIO_SORTS)[number];

export const DANMAKU_MODES = ['rtl', 'ltr', 'top', 'bottom'] as const;
export type DanmakuMode = (typeof DANMAKU_MODES)[number];
export const DANMAKU_SIZES = ['small', 'medium', 'large'] as const;
export type DanmakuSize = (typeof DANMAKU_SIZES)[number];
export const DANMAKU_TEXT_MAX = 100;
/** video/danmaku answers in time segments of this length, so long videos load progressively. */
export const DANMAKU_SEGMENT_SECONDS = 360;

/** Collections (favourites, playlists): limits shared by the server's schemas and the browser's forms. */
export const COLLECTION_TITLE_MAX = 80;
export const COLLECTION_DESCRIPTION_MAX = 1000;
export const COLLECTION_VIDEOS_MAX = 1000;
export const COLLECTIONS_PER_MEMBER = 100;
export const COLLECTION_VISIBILITIES = ['public', 'private'] as const;
export type CollectionVisibility = (typeof COLLECTION_VISIBILITIES)[number];
