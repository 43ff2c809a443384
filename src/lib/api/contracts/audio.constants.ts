/** Audio (issue 13): the longest track, the longest credits line, and the list orders of /audio. */
export const MAX_AUDIO_DURATION_S = 7200;
export const AUDIO_ARTIST_MAX = 100;
export const AUDIO_SORTS = ['newest', 'popular'] as const;
export type AudioSort = (typeof AUDIO_SORTS)[number];
