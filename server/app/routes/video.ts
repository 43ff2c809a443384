import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import { videoExistsQuery, type VideoExistsResponse } from '../../../src/lib/api/contract.ts';
import { validate } from '../validate.ts';

/** SPEC §7 "Video" family. The catalogue calls grow here with the video pipeline. */
export function videoRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/exists', async (c) => {
    const { videoId } = validate(videoExistsQuery, c.req.query());
    const body: VideoExistsResponse = { success: true, exist: await c.get('catalogue').videoExists(videoId) };
    return c.json(body);
  });
  // Resumable uploads (tus 1.0): the upload server checks the login and the owner itself.
  app.all('/tus', (c) => c.get('deps').uploads.handle(c.req.raw));
  app.all('/tus/*', (c) => c.get('deps').uploads.handle(c.req.raw));
  return app;
}
