import { Hono, type Context } from 'hono';
import type { AppEnv } from '../create-app.ts';
import * as C from '../../../src/lib/api/contract.ts';
import { requireViewer } from '../auth.ts';
import { AppError } from '../errors.ts';
import { validate } from '../validate.ts';
import { isStaff } from '../../auth/roles.ts';
import { createHistoryService } from '../../services/history.ts';

/** SPEC §7 "History": a member's views with the last position, unless they turned it off. */
export function historyRoutes() {
  const app = new Hono<AppEnv>();
  const service = (c: Context<AppEnv>) => createHistoryService(c.get('deps').db);
  app.get('/filter', async (c) => {
    const viewer = await requireViewer(c);
    const { videoTitle } = validate(C.historyFilterQuery, c.req.query());
    c.header('Cache-Control', 'private, no-store');
    return c.json({ success: true, result: await c.get('catalogue').history(viewer.uid, videoTitle || undefined) } satisfies C.HistoryListResponse);
  });
  app.post('/record', async (c) => {
    const viewer = await requireViewer(c);
    const { videoId, anchor } = validate(C.historyRecordBody, await c.req.json().catch(() => null));
    if (!(await c.get('catalogue').visibleVideo(videoId, { uid: viewer.uid, isStaff: isStaff(viewer.roles) }))) throw new AppError('NOT_FOUND');
    return c.json({ success: true, recorded: await service(c).record(viewer.uid, videoId, anchor) });
  });
  app.get('/anchor', async (c) => {
    const viewer = await requireViewer(c);
    const { videoId } = validate(C.videoExistsQuery, c.req.query());
    c.header('Cache-Control', 'private, no-store');
    return c.json({ success: true, anchor: await service(c).anchorOf(viewer.uid, videoId) });
  });
  app.delete('/clear', async (c) => {
    const viewer = await requireViewer(c);
    await service(c).clear(viewer.uid);
    return c.json({ success: true });
  });
  return app;
}
