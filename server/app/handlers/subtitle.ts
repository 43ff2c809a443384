import type { HandlerSet } from '../mount-routes.ts';
import { DomainError, NotFound } from '../../domain/errors.ts';
import { MalformedDanmakuXml, parseBilibiliXml, toBilibiliXml, toDanmakuAss } from '../../media/danmaku-exchange.ts';

/** Subtitle tracks (issue 29): read by whoever may see the video; written by its uploader or staff. */
export const subtitleHandlers: HandlerSet<'video/subtitle'> = {
  'POST video/subtitle/create': async (body, { services, actor, authorize, logger }) => {
    authorize('subtitle.edit', { ownerUid: await services.videos.uploaderOf(body.videoId) });
    const subtitle = await services.subtitles.create(body, actor.uid);
    logger.info('subtitle added', { videoId: body.videoId, subtitleId: subtitle.id, by: actor.uid });
    return { success: true, subtitle };
  },
  'GET video/subtitle/list': async ({ videoId }, ctx) => {
    if (!(await ctx.services.catalogue.visibleVideo(videoId, await ctx.viewer()))) throw new NotFound();
    return { success: true, subtitles: await ctx.services.subtitles.list(videoId) };
  },
  'DELETE video/subtitle/delete': async ({ id }, { services, actor, authorize, logger }) => {
    authorize('subtitle.edit', { ownerUid: await services.videos.uploaderOf(await services.subtitles.videoOf(id)) });
    await services.subtitles.remove(id);
    logger.info('subtitle removed', { subtitleId: id, by: actor.uid });
    return { success: true };
  },
};

/** Danmaku leaving as a file (anyone who may see the video) and coming in from one (its uploader or staff). */
export const danmakuExchangeHandlers: HandlerSet<'video/danmaku/export' | 'video/danmaku/import'> = {
  'GET video/danmaku/export': async ({ videoId, format }, ctx) => {
    const video = await ctx.services.catalogue.visibleVideo(videoId, await ctx.viewer());
    if (!video) throw new NotFound();
    // The whole pool as everyone receives it: no sender ids.
    const danmaku = await ctx.services.danmaku.list({ type: 'video', id: videoId }, video.durationMs);
    const { c } = ctx;
    c.header('Content-Type', format === 'xml' ? 'application/xml; charset=utf-8' : 'text/x-ssa; charset=utf-8');
    c.header('Content-Disposition', `attachment; filename="kv${videoId}.danmaku.${format}"`);
    return c.body(format === 'xml' ? toBilibiliXml(danmaku, videoId) : toDanmakuAss(danmaku, `kv${videoId}`));
  },
  'POST video/danmaku/import': async ({ videoId, xml }, { services, actor, authorize, logger }) => {
    authorize('subtitle.edit', { ownerUid: await services.videos.uploaderOf(videoId) });
    const video = await services.catalogue.visibleVideo(videoId, actor); // its uploader or staff: authorised above
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
