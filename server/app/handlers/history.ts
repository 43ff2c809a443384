import type { HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';
import { NotFound } from '../../domain/errors.ts';
import { HISTORY_LIMIT } from '../../services/catalogue.ts';

/** SPEC §7 "History". */
export const historyHandlers: HandlerSet<'history/'> = {
  // Videos, tracks and photo posts together, the most recent visit first; `show=liked`: only those the member likes.
  'GET history/filter': async ({ videoTitle, show }, { services, actor }) => {
    const title = videoTitle || undefined;
    const liked = show === 'liked';
    const [videos, tracks, photos] = await Promise.all([
      services.catalogue.history(actor.uid, title, liked), services.audio.history(actor.uid, title, HISTORY_LIMIT, liked), services.photos.history(actor.uid, title, HISTORY_LIMIT, liked),
    ]);
    const result = [...videos, ...tracks, ...photos].sort((a, b) => b.lastUpdateDateTime - a.lastUpdateDateTime).slice(0, HISTORY_LIMIT);
    return { success: true, result };
  },
  'POST history/record': async ({ videoId, mediaType, anchor }, { services, actor }) => {
    const target = { type: mediaType, id: videoId };
    if (!(await services.targets.visible(target, actor))) throw new NotFound();
    return { success: true, recorded: await services.history.record(actor.uid, target, anchor) };
  },
  'GET history/anchor': async ({ videoId, mediaType }, { services, actor }) =>
    ({ success: true, anchor: await services.history.anchorOf(actor.uid, { type: mediaType, id: videoId }) }),
  'DELETE history/clear': async (_input, { services, actor }) => done(services.history.clear(actor.uid)),
};
