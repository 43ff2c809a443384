/** Where a media item's HLS renditions live, under MEDIA_DIR and under /media/. */
export const hlsPath = (mediaId: string) => `hls/${mediaId}`;
/** Where a photo post's rendered images live: `photos/{photoId}/{imageId}/{width}.{avif|webp|jpg}`. */
export const photoPath = (photoId: number) => `photos/${photoId}`;

/** The media jobs' kinds (server/media/pipeline.ts handles them). */
export const PROBE_JOB = 'media.probe';
export const TRANSCODE_JOB = 'media.transcode';
export const FRAME_RATE_JOB = 'media.frame-rate';
export const POSTER_SET_JOB = 'media.poster-set';

/**
 * The state a media item given up on ('failed') returns to when an administrator retries the
 * failed job (settings/jobs): a transcode starts from a probed media.
 */
export const MEDIA_STATE_ON_RETRY: Record<string, 'probed'> = { [TRANSCODE_JOB]: 'probed' };
