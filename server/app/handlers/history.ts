import type { HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';

/** SPEC §7 "History". */
export const historyHandlers: HandlerSet<'history/'> = {
  // Videos, tracks and photo posts together, the most recent visit first; `show=liked`: only those the member likes.
  'GET history/filter': async ({ videoTitle, show }, { services, actor }) => ({
    success: true,
    result: await services.forViewer.history(actor.uid, videoTitle || undefined, show === 'liked'),
  }),
  // The target as the member sees it (the entry's resource).
  'POST history/record': async ({ anchor }, { services, actor, resource }) => ({
    success: true,
    recorded: await services.history.record(actor.uid, resource.target, anchor),
  }),
  'GET history/anchor': async ({ videoId, mediaType }, { services, actor }) => ({
    success: true,
    anchor: await services.history.anchorOf(actor.uid, { type: mediaType, id: videoId }),
  }),
  'DELETE history/clear': async (_input, { services, actor }) => done(services.history.clear(actor.uid)),
};
