/** Where a media item's HLS renditions live, under MEDIA_DIR and under /media/. */
export const hlsPath = (mediaId: string) => `hls/${mediaId}`;
