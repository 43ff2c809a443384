/**
 * Plain values several families share (review refusals, what danmaku, comments and history are on),
 * without zod: what the browser imports. Each contracts/<family>.constants.ts holds its family's.
 */
/**
 * Why a reviewer refuses a video, track or photo post from the review queue; the uploader reads
 * it (and the reviewer's note, at most REVIEW_NOTE_MAX characters) in their own lists.
 */
export const REVIEW_REJECTION_REASONS = [
  'COPYRIGHT',
  'INAPPROPRIATE',
  'SPAM',
  'MISLEADING',
  'LOW_QUALITY',
  'WRONG_CATEGORY',
  'OTHER',
] as const;
export type ReviewRejectionReason = (typeof REVIEW_REJECTION_REASONS)[number];
export const REVIEW_NOTE_MAX = 500;

/**
 * What danmaku, comments and history can be on (the `mediaType` of those calls): a video, an
 * audio track or a photo post; the id field (`videoId`) names one of that type.
 */
export const MEDIA_TYPES = ['video', 'audio', 'photo'] as const;
export type MediaType = (typeof MEDIA_TYPES)[number];
/** One thing danmaku, comments and history are on. */
export interface MediaTarget {
  type: MediaType;
  id: number;
}
