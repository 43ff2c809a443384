import type { HandlerSet } from '../mount-routes.ts';
import { DomainError, Invalid, NotFound } from '../../domain/errors.ts';
import { startSession } from './user.ts';
import { MAX_IMAGE_BYTES } from '../../media/image-service.ts';
import { openApiDocument, openApiPage } from '../openapi.ts';

const started = Date.now();

/** Generated once: the table does not change while the process runs. */
let document: ReturnType<typeof openApiDocument> | undefined;
const documentFor = (apiPrefix: string) => (document ??= openApiDocument({ apiPrefix, version: process.env.npm_package_version ?? '0.1.0' }));

export const systemHandlers: HandlerSet<'health' | 'images/' | 'openapi.json' | 'docs' | 'firstRun'> = {
  'GET openapi.json': async (_input, { apiPrefix }) => documentFor(apiPrefix),
  'GET docs': async (_input, { apiPrefix, c }) => c.html(openApiPage(documentFor(apiPrefix))),
  'GET health': async (_input, { services, c }) => {
    const databaseOk = await services.health.ping();
    const body = {
      success: true as const, status: databaseOk ? 'ok' as const : 'degraded' as const, database: services.health.databaseKind,
      databaseOk, buildId: services.health.buildId, uptimeSeconds: Math.round((Date.now() - started) / 1000),
    };
    return databaseOk ? body : c.json(body, 503);
  },
  'GET firstRun': async (_input, { services }) => {
    if (!(await services.firstRun.open())) throw new NotFound();
    return { success: true, open: true } as const;
  },
  'POST firstRun': async (body, ctx) => {
    const { clientLanguage, ...fields } = body;
    return startSession(ctx, await ctx.services.firstRun.createAdministrator({ ...fields, language: clientLanguage ?? ctx.locale }));
  },
  // The signed URL is the permission (it names the user and expires); the file is re-encoded before it is stored.
  'POST images/upload': async (_input, { services, resource: { grant }, c }) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const file = form.file;
    if (!(file instanceof File)) throw new Invalid([{ path: 'file', message: 'a file is required' }]);
    if (file.size > MAX_IMAGE_BYTES) throw new DomainError('PAYLOAD_TOO_LARGE');
    return { success: true, url: await services.images.store(grant!, new Uint8Array(await file.arrayBuffer())) };
  },
};
