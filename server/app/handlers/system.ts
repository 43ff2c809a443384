import type { HandlerSet } from '../mount-routes.ts';
import { formFile } from './answers.ts';
import { startSession } from './user.ts';
import { MAX_IMAGE_BYTES } from '../../media/image-service.ts';
import { openApiPage } from '../openapi.ts';

export const systemHandlers: HandlerSet<'health' | 'images/' | 'openapi.json' | 'docs' | 'firstRun'> = {
  'GET openapi.json': async (_input, { openApi }) => openApi(),
  'GET docs': async (_input, { openApi, c }) => c.html(openApiPage(openApi())),
  // A database that does not answer makes the process unready (503) for the load balancer.
  'GET health': async (_input, { services, c }) =>
    services.health.status().then((body) => (body.databaseOk ? body : c.json(body, 503))),
  'GET firstRun': async (_input, { services }) => ({ success: true, open: await services.firstRun.stillOpen() }),
  'POST firstRun': async ({ clientLanguage, ...fields }, ctx) =>
    startSession(ctx, ctx.services.firstRun.createAdministrator({ ...fields, language: clientLanguage ?? ctx.locale })),
  // The signed URL is the permission (it names the user and expires); the file is re-encoded before it is stored.
  'POST images/upload': async (_input, { services, resource: { grant }, c }) => ({
    success: true,
    url: await services.images.store(grant!, await formFile(c, MAX_IMAGE_BYTES)),
  }),
};
