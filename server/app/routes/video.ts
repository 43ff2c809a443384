import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import { videoExistsQuery, type VideoExistsResponse } from '../../../src/lib/api/contract.ts';
import { validate } from '../validate.ts';

/** SPEC §7 "Video" family. The catalogue calls grow here with the video pipeline. */
export function videoRoutes() {
  return new Hono<AppEnv>().get('/exists', async (c) => {
    const { videoId } = validate(videoExistsQuery, c.req.query());
    const body: VideoExistsResponse = { success: true, exist: await c.get('catalogue').videoExists(videoId) };
    return c.json(body);
  });
}
