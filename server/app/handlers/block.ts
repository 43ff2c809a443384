import type { HandlerSet } from '../mount-routes.ts';
import { BLOCK_LIST_LIMITS } from '#lib/validation/block-lists.ts';

/** SPEC §7 "Block": each list's calls carry its value in their own field (API-NOTES). */
export const blockHandlers: HandlerSet<'block/'> = {
  'GET block/list': async ({ type, ...page }, { services, actor }) => ({
    success: true,
    ...(await services.blockLists.list(actor.uid, type, page)),
    limit: BLOCK_LIST_LIMITS[type],
  }),
  'POST block/user': async ({ blockUid }, { services, actor }) => ({
    success: true,
    added: await services.blockLists.add(actor.uid, 'block', String(blockUid)),
  }),
  'DELETE block/delete/user': async ({ blockUid }, { services, actor }) => ({
    success: true,
    removed: await services.blockLists.remove(actor.uid, 'block', String(blockUid)),
  }),
  'POST block/hideuser': async ({ hideUid }, { services, actor }) => ({
    success: true,
    added: await services.blockLists.add(actor.uid, 'hide', String(hideUid)),
  }),
  'DELETE block/delete/hideuser': async ({ hideUid }, { services, actor }) => ({
    success: true,
    removed: await services.blockLists.remove(actor.uid, 'hide', String(hideUid)),
  }),
  'POST block/tag': async ({ tagId }, { services, actor }) => ({
    success: true,
    added: await services.blockLists.add(actor.uid, 'tag', String(tagId)),
  }),
  'DELETE block/delete/tag': async ({ tagId }, { services, actor }) => ({
    success: true,
    removed: await services.blockLists.remove(actor.uid, 'tag', String(tagId)),
  }),
  'POST block/keyword': async ({ blockKeyword }, { services, actor }) => ({
    success: true,
    added: await services.blockLists.add(actor.uid, 'keyword', blockKeyword),
  }),
  'DELETE block/delete/keyword': async ({ blockKeyword }, { services, actor }) => ({
    success: true,
    removed: await services.blockLists.remove(actor.uid, 'keyword', blockKeyword),
  }),
  'POST block/regex': async ({ blockRegex }, { services, actor }) => ({
    success: true,
    added: await services.blockLists.add(actor.uid, 'regex', blockRegex),
  }),
  'DELETE block/delete/regex': async ({ blockRegex }, { services, actor }) => ({
    success: true,
    removed: await services.blockLists.remove(actor.uid, 'regex', blockRegex),
  }),
};
