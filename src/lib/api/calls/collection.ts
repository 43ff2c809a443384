/** Collection calls (they throw HttpError with the server's code and message). */
import { call, type ApiInput } from '../client.ts';
import type { MediaType } from '../contracts/common.constants.ts';

export const listCollections = (uid: number) => call('GET collection/list', { uid });
export const getCollection = (collectionId: number, page = 1, pageSize = 100) =>
  call('GET collection/get', { collectionId, page, pageSize });
/** `mediaType`: what `videoId` names (a video, an audio track or a photo post). */
export const collectionsContaining = (videoId: number, mediaType: MediaType = 'video') =>
  call('GET collection/containing', { videoId, mediaType });
export const createCollection = (fields: ApiInput<'POST collection/create'>) => call('POST collection/create', fields);
export const updateCollection = (changes: ApiInput<'POST collection/update'>) =>
  call('POST collection/update', changes);
export const deleteCollection = (collectionId: number) => call('POST collection/delete', { collectionId });
export const addToCollection = (collectionId: number, videoId: number, mediaType: MediaType = 'video') =>
  call('POST collection/addVideo', { collectionId, videoId, mediaType });
export const removeFromCollection = (collectionId: number, videoId: number, mediaType: MediaType = 'video') =>
  call('POST collection/removeVideo', { collectionId, videoId, mediaType });
/** The new order of a collection's items of every kind, first to last. */
export const reorderCollection = (collectionId: number, items: Array<{ mediaType: MediaType; id: number }>) =>
  call('POST collection/reorder', { collectionId, items });
