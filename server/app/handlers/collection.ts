import type { HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';

/**
 * Collections: a change names the collection as its resource (route entry): the mount loads it as
 * the caller may see it (someone else's private one is not found) and the policy decides whether
 * they may change it (the owner rule) before the handler runs.
 */
export const collectionHandlers: HandlerSet<'collection/'> = {
  'POST collection/create': async ({ videoId, mediaType, ...fields }, { services, actor }) => ({
    success: true,
    collection: await services.collections.create(
      actor.uid,
      fields,
      videoId === undefined ? undefined : { type: mediaType, id: videoId },
    ),
  }),
  'POST collection/update': async ({ collectionId, ...changes }, { services }) => ({
    success: true,
    collection: await services.collections.update(collectionId, changes),
  }),
  'POST collection/delete': async ({ collectionId }, { services }) => done(services.collections.remove(collectionId)),
  'GET collection/list': async ({ uid }, { services, viewer }) => ({
    success: true,
    collections: await services.collections.list(uid, (await viewer())?.uid ?? null),
  }),
  'GET collection/get': async ({ collectionId, ...window }, { services, viewer }) => ({
    success: true,
    ...(await services.collections.get(collectionId, (await viewer())?.uid ?? null, window)),
  }),
  'POST collection/addVideo': async ({ collectionId, videoId, mediaType }, { services }) => ({
    success: true,
    ...(await services.collections.addVideo(collectionId, { type: mediaType, id: videoId })),
  }),
  'POST collection/removeVideo': async ({ collectionId, videoId, mediaType }, { services }) => ({
    success: true,
    ...(await services.collections.removeVideo(collectionId, { type: mediaType, id: videoId })),
  }),
  // Items (any kind), or the older list of video ids: whichever the call sent names the path of an error.
  'POST collection/reorder': async ({ collectionId, videoIds, items }, { services }) =>
    done(
      items
        ? services.collections.reorder(
            collectionId,
            items.map((item) => ({ type: item.mediaType, id: item.id })),
          )
        : services.collections.reorder(
            collectionId,
            (videoIds ?? []).map((id) => ({ type: 'video' as const, id })),
            'videoIds',
          ),
    ),
  'GET collection/containing': async ({ videoId, mediaType }, { services, actor }) => ({
    success: true,
    collectionIds: await services.collections.containing(actor.uid, { type: mediaType, id: videoId }),
  }),
};
