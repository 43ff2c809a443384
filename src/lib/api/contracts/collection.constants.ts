/** Collections (favourites, playlists): limits shared by the server's schemas and the browser's forms. */
export const COLLECTION_TITLE_MAX = 80;
export const COLLECTION_DESCRIPTION_MAX = 1000;
export const COLLECTION_VIDEOS_MAX = 1000;
export const COLLECTIONS_PER_MEMBER = 100;
export const COLLECTION_VISIBILITIES = ['public', 'private'] as const;
export type CollectionVisibility = (typeof COLLECTION_VISIBILITIES)[number];
