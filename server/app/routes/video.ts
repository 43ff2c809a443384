import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import { videoExistsQuery, mediaStatusQuery, type VideoExistsResponse, type MediaStatusResponse } from '../../../src/lib/api/contract.ts';
import { requireViewer } from '../auth.ts';
import { AppError } from '../errors.ts';
import { hlsPath } from '../../media/pipeline.ts';
import { validate } from '../validate.ts';

/** SPEC §7 "Video" family. The catalogue calls grow here with the video pipeline. */
export function videoRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/exists', async (c) => {
    const { videoId } = validate(videoExistsQuery, c.req.query());
    const body: VideoExistsResponse = { success: true, exist: await c.get('catalogue').videoExists(videoId) };
    return c.json(body);
  });
  // What became of an uploaded file (its owner only): probing, ready, or refused and why.
  app.get('/media/status', async (c) => {
    const viewer = await requireViewer(c);
    const { mediaId } = validate(mediaStatusQuery, c.req.query());
    const media = await c.get('deps').db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirst();
    if (!media) throw new AppError('NOT_FOUND');
    if (media.uid !== viewer.uid) throw new AppError('FORBIDDEN');
    const body: MediaStatusResponse = {
      success: true, mediaId, status: media.status, reason: media.reason as MediaStatusResponse['reason'],
      duration: media.duration_ms, width: media.width, height: media.height, renditions: media.renditions,
      manifestUrl: media.renditions.length ? `/media/${hlsPath(mediaId)}/master.m3u8` : null,
      posterUrl: media.renditions.length ? `/media/${hlsPath(mediaId)}/poster.jpg` : null,
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body);
  });

  // Resumable uploads (tus 1.0): the upload server checks the login and the owner itself.
  app.all('/tus', (c) => c.get('deps').uploads.handle(c.req.raw));
  app.all('/tus/*', (c) => c.get('deps').uploads.handle(c.req.raw));
  return app;
}
