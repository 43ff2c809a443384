import type { HandlerSet } from '../mount-routes.ts';
import { DomainError, NotFound } from '../../domain/errors.ts';
import { done } from './done.ts';
import { logged } from './logged.ts';
import { MalformedDanmakuXml, parseBilibiliXml } from '../../media/danmaku-exchange.ts';
import { attachment } from './answers.ts';

/** Subtitle tracks (issue 29): read by whoever may see the video; written by its uploader or staff. */
export const subtitleHandlers: HandlerSet<'video/subtitle'> = {
  // The video's uploader or staff (the entry's resource).
  'POST video/subtitle/create': async (body, { services, actor, logger }) =>
    ({ success: true, subtitle: await logged(logger, 'subtitle added', services.subtitles.create(body, actor.uid), (subtitle) => ({ videoId: body.videoId, subtitleId: subtitle.id, by: actor.uid })) }),
  // The video as the caller sees it (the entry's resource).
  'GET video/subtitle/list': async ({ videoId }, { services }) => ({ success: true, subtitles: await services.subtitles.list(videoId) }),
  'DELETE video/subtitle/delete': async ({ id }, { services, actor, logger }) =>
    logged(logger, 'subtitle removed', done(services.subtitles.remove(id)), () => ({ subtitleId: id, by: actor.uid })),
};

/** Danmaku leaving as a file (anyone who may see the video) and coming in from one (its uploader or staff). */
export const danmakuExchangeHandlers: HandlerSet<'video/danmaku/export' | 'video/danmaku/import'> = {
  // The video as the caller sees it (the entry's resource).
  'GET video/danmaku/export': async ({ videoId, format }, { services, resource, c }) => attachment(c, await services.danmaku.exportFile(videoId, resource.durationMs, format)),
  'POST video/danmaku/import': async ({ videoId, xml }, { services, actor, logger }) => {
    const video = await services.catalogue.visibleVideo(videoId, actor); // its uploader or staff: the entry's resource
    if (!video) throw new NotFound();
    let parsed: ReturnType<typeof parseBilibiliXml>;
    try {
      parsed = parseBilibiliXml(xml);
    } catch (error) {
      if (error instanceof MalformedDanmakuXml) throw new DomainError('DANMAKU_XML_MALFORMED', { issues: [{ path: 'xml', message: error.message }] });
      throw error;
    }
    const outcome = await services.danmaku.importInto(videoId, video.durationMs, actor.uid, parsed.danmaku);
    logger.info('danmaku imported', { videoId, by: actor.uid, imported: outcome.imported });
    return { success: true, imported: outcome.imported, skipped: outcome.skipped + parsed.skipped };
  },
};
