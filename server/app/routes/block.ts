import { Hono, type Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../create-app.ts';
import * as C from '../../../src/lib/api/contract.ts';
import { requireMember, requireViewer } from '../auth.ts';
import { validate } from '../validate.ts';
import { createBlockListService } from '../../services/block-lists.ts';

const service = (c: Context<AppEnv>) => createBlockListService(c.get('deps').db);

/** Each list's call name, body schema and the field that carries its value (API-NOTES). */
const LISTS = [
  { path: 'user', type: 'block', schema: C.blockUserBody, field: 'blockUid' },
  { path: 'hideuser', type: 'hide', schema: C.hideUserBody, field: 'hideUid' },
  { path: 'tag', type: 'tag', schema: C.blockTagBody, field: 'tagId' },
  { path: 'keyword', type: 'keyword', schema: C.blockKeywordBody, field: 'blockKeyword' },
  { path: 'regex', type: 'regex', schema: C.blockRegexBody, field: 'blockRegex' },
] as const satisfies ReadonlyArray<{ path: string; type: C.BlockListType; schema: z.ZodType; field: string }>;

/** SPEC §7 "Block": a member's lists of blocked and hidden users, tags, keywords and expressions. */
export function blockRoutes() {
  const app = new Hono<AppEnv>();

  for (const { path, type, schema, field } of LISTS) {
    const valueOf = async (c: Context<AppEnv>) => {
      const body = validate(schema, await c.req.json().catch(() => null)) as Record<string, string | number>;
      return String(body[field]);
    };
    // Adding needs a member in good standing; removing only a login (a banned member may clean up).
    app.post(`/${path}`, async (c) => {
      const viewer = await requireMember(c);
      const added = await service(c).add(viewer.uid, type, await valueOf(c));
      return c.json({ success: true, added } satisfies C.BlockChangeResponse);
    });
    app.delete(`/delete/${path}`, async (c) => {
      const viewer = await requireViewer(c);
      const removed = await service(c).remove(viewer.uid, type, await valueOf(c));
      return c.json({ success: true, removed } satisfies C.BlockChangeResponse);
    });
  }

  app.get('/list', async (c) => {
    const viewer = await requireViewer(c);
    const { type, ...page } = validate(C.blockListQuery, c.req.query());
    c.header('Cache-Control', 'private, no-store');
    const list = await service(c).list(viewer.uid, type, page);
    return c.json({ success: true, ...list, limit: C.BLOCK_LIST_LIMITS[type] } satisfies C.BlockListResponse);
  });
  return app;
}
