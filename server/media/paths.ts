/** Where a media item's HLS renditions live, under MEDIA_DIR and under /media/. */
export const hlsPath = (mediaId: string) => `hls/${mediaId}`;
/** Where a photo post's rendered images live: `photos/{photoId}/{imageId}/{width}.{avif|webp|jpg}`. */
export const photoPath = (photoId: number) => `photos/${photoId}`;
