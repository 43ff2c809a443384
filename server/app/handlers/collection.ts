import type { HandlerSet } from '../mount-routes.ts';

/**
 * Collections: a change loads the collection as the caller may see it (someone else's private
 * one is not found), then the policy decides whether they may change it (the owner rule).
 */
export const collectionHandlers: HandlerSet<'collection/'> = {
  'POST collection/create': async ({ videoId, mediaType, ...fields }, { services, actor }) =>
    ({ success: true, collection: await services.collections.create(actor.uid, fields, videoId === undefined ? undefined : { type: mediaType, id: videoId }) }),
  'POST collection/update': async ({ collectionId, ...changes }, { services, actor, authorize }) => {
    authorize('collection.edit', { ownerUid: await services.collections.ownerOf(collectionId, actor.uid) });
    return { success: true, collection: await services.collections.update(collectionId, changes) };
  },
  'POST collection/delete': async ({ collectionId }, { services, actor, authorize }) => {
    authorize('collection.clean', { ownerUid: await services.collections.ownerOf(collectionId, actor.uid) });
    await services.collections.remove(collectionId);
    return { success: true };
  },
  'GET collection/list': async ({ uid }, { services, viewer }) =>
    ({ success: true, collections: await services.collections.list(uid, (await viewer())?.uid ?? null) }),
  'GET collection/get': async ({ collectionId, ...window }, { services, viewer }) =>
    ({ success: true, ...(await services.collections.get(collectionId, (await viewer())?.uid ?? null, window)) }),
  'POST collection/addVideo': async ({ collectionId, videoId, mediaType }, { services, actor, authorize }) => {
    authorize('collection.edit', { ownerUid: await services.collections.ownerOf(collectionId, actor.uid) });
    return { success: true, ...(await services.collections.addVideo(collectionId, { type: mediaType, id: videoId })) };
  },
  'POST collection/removeVideo': async ({ collectionId, videoId, mediaType }, { services, actor, authorize }) => {
    authorize('collection.clean', { ownerUid: await services.collections.ownerOf(collectionId, actor.uid) });
    return { success: true, ...(await services.collections.removeVideo(collectionId, { type: mediaType, id: videoId })) };
  },
  'POST collection/reorder': async ({ collectionId, videoIds, items }, { services, actor, authorize }) => {
    authorize('collection.edit', { ownerUid: await services.collections.ownerOf(collectionId, actor.uid) });
    if (items) await services.collections.reorder(collectionId, items.map((item) => ({ type: item.mediaType, id: item.id })));
    else await services.collections.reorder(collectionId, (videoIds ?? []).map((id) => ({ type: 'video' as const, id })), 'videoIds');
    return { success: true };
  },
  'GET collection/containing': async ({ videoId, mediaType }, { services, actor }) =>
    ({ success: true, collectionIds: await services.collections.containing(actor.uid, { type: mediaType, id: videoId }) }),
};
