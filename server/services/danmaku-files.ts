/**
 * Danmaku leaving a video as a file (Bilibili's XML or ASS) and coming in from one (Bilibili's XML).
 */
import type { Actor } from '#lib/policy/policy.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { MalformedDanmakuXml, parseBilibiliXml, toBilibiliXml, toDanmakuAss } from '../media/danmaku-exchange.ts';
import type { createCatalogue } from './catalogue.ts';
import type { createDanmakuService } from './danmaku.ts';

export function createDanmakuFiles({
  catalogue,
  danmaku,
}: {
  catalogue: ReturnType<typeof createCatalogue>;
  danmaku: ReturnType<typeof createDanmakuService>;
}) {
  return {
    /** A video's whole pool as a file, as everyone receives it: no sender ids. */
    async exportFile(
      videoId: number,
      durationMs: number,
      format: 'xml' | 'ass',
    ): Promise<{ contentType: string; filename: string; body: string }> {
      const pool = await danmaku.list({ type: 'video', id: videoId }, durationMs);
      return {
        contentType: format === 'xml' ? 'application/xml; charset=utf-8' : 'text/x-ssa; charset=utf-8',
        filename: `kv${videoId}.danmaku.${format}`,
        body: format === 'xml' ? toBilibiliXml(pool, videoId) : toDanmakuAss(pool, `kv${videoId}`),
      };
    },

    /** A Bilibili XML file's danmaku into a video (its uploader or staff, checked on the route entry); malformed XML is a 400 saying where. */
    async importXml(
      videoId: number,
      actor: Actor & { uid: number },
      xml: string,
    ): Promise<{ imported: number; skipped: number }> {
      const video = await catalogue.visibleVideo(videoId, actor);
      if (!video) throw new NotFound();
      let parsed: ReturnType<typeof parseBilibiliXml>;
      try {
        parsed = parseBilibiliXml(xml);
      } catch (error) {
        if (error instanceof MalformedDanmakuXml)
          throw new DomainError('DANMAKU_XML_MALFORMED', { issues: [{ path: 'xml', message: error.message }] });
        throw error;
      }
      const outcome = await danmaku.importInto(videoId, video.durationMs, actor.uid, parsed.danmaku);
      return { imported: outcome.imported, skipped: outcome.skipped + parsed.skipped };
    },
  };
}
