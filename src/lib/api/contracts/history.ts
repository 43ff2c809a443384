/** Watch history and its resume anchors. */
import { z } from 'zod';
import { mediaType, positiveId } from './common.ts';
import { videoThumb } from './video.ts';

export const historyRecordBody = z.object({
  videoId: positiveId,
  mediaType,
  anchor: z
    .number()
    .finite()
    .min(0)
    .max(24 * 3600),
});
export const historyAnchorQuery = z.object({ videoId: positiveId, mediaType });
/** `show=liked` keeps what the member likes (issue 27). */
export const historyFilterQuery = z.object({
  videoTitle: z.string().trim().max(100).optional(),
  show: z.enum(['all', 'liked']).default('all'),
});
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
