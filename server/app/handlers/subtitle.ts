import type { HandlerSet } from '../mount-routes.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
import { attachment } from './answers.ts';

/** Subtitle tracks (issue 29): read by whoever may see the video; written by its uploader or staff. */
export const subtitleHandlers: HandlerSet<'video/subtitle'> = {
  // The video's uploader or staff (the entry's resource).
  'POST video/subtitle/create': async (body, { services, actor, logger }) => ({
    success: true,
    subtitle: await logged(logger, 'subtitle added', services.subtitles.create(body, actor.uid), (subtitle) => ({
      videoId: body.videoId,
      subtitleId: subtitle.id,
      by: actor.uid,
    })),
  }),
  // The video as the caller sees it (the entry's resource).
  'GET video/subtitle/list': async ({ videoId }, { services }) => ({
    success: true,
    subtitles: await services.subtitles.list(videoId),
  }),
  'DELETE video/subtitle/delete': async ({ id }, { services, actor, logger }) =>
    logged(logger, 'subtitle removed', done(services.subtitles.remove(id)), () => ({ subtitleId: id, by: actor.uid })),
};

/** Danmaku leaving as a file (anyone who may see the video) and coming in from one (its uploader or staff). */
export const danmakuExchangeHandlers: HandlerSet<'video/danmaku/export' | 'video/danmaku/import'> = {
  // The video as the caller sees it (the entry's resource).
  'GET video/danmaku/export': async ({ videoId, format }, { services, resource, c }) =>
    attachment(c, await services.danmakuFiles.exportFile(videoId, resource.durationMs, format)),
  // Its uploader or staff (the entry's resource).
  'POST video/danmaku/import': async ({ videoId, xml }, { services, actor, logger }) =>
    logged(logger, 'danmaku imported', services.danmakuFiles.importXml(videoId, actor, xml), ({ imported }) => ({
      videoId,
      by: actor.uid,
      imported,
    })).then((outcome) => ({ success: true, ...outcome })),
};
