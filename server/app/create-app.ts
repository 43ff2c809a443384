import { publicOrigin } from '../http/public-origin.ts';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { randomUUID } from 'node:crypto';
import { errorAnswer, outageOf } from './errors.ts';
import { DomainError } from '../domain/errors.ts';
import { mountMethodRefusals, mountRoutes } from './mount-routes.ts';
import { openApiDocument } from './openapi.ts';
import { allHandlers } from './handlers/index.ts';
import { tusAnswer } from './handlers/upload.ts';
import { HTTPException } from 'hono/http-exception';
import { hasControlCharacterInPath } from '../http/control-path.ts';

export type { AppDeps, AppEnv } from './app-env.ts';
import type { AppDeps, AppEnv } from './app-env.ts';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const REQUEST_ID_RE = /^[\w.:-]{1,100}$/;

/** The API's path prefix, from the configured backend base ('/api/' or 'https://api.example/api/'). */
export function apiBasePath(apiBase: string): string {
  const path = new URL(apiBase, 'http://x').pathname.replace(/\/+$/, '');
  return path || '/';
}

/** The API server: routes per family of SPEC §7 under the configured base. */
export function createApiApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>().basePath(apiBasePath(deps.config.runtime.apiBase));
  const { services } = deps;
  const apiPrefix = apiBasePath(deps.config.runtime.apiBase);

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    // Set before the handler runs: a header added to a finished response makes Hono rebuild it,
    // copying the whole body (a danmaku segment is about a megabyte).
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    logger.info('request', {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
    });
  });

  // No call has a control character in its path (%00…): refused before routing reads it.
  app.use('*', async (c, next) => {
    if (hasControlCharacterInPath(new URL(c.req.url).pathname))
      throw new DomainError('VALIDATION_FAILED', {
        issues: [{ path: '(path)', message: 'must not contain control characters' }],
      });
    await next();
  });

  // A separately hosted site may call with credentials; same-origin calls need no CORS. Only
  // requests with an Origin get the headers: Hono's cors middleware reads the response early,
  // and that forces a copy of every body (see above), a cost same-origin reads never need.
  const corsHeaders = cors({
    origin: (origin) => (deps.config.corsOrigins.includes(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: [
      'Content-Type',
      'X-Request-Id',
      'X-Client-Language',
      'Tus-Resumable',
      'Upload-Length',
      'Upload-Offset',
      'Upload-Metadata',
      'Upload-Concat',
      'Upload-Defer-Length',
    ],
    exposeHeaders: [
      'X-Request-Id',
      'Retry-After',
      'Stream-Media-Id',
      'Location',
      'Upload-Offset',
      'Upload-Length',
      'Tus-Resumable',
    ],
    maxAge: 600,
  });
  app.use('*', (c, next) => (c.req.header('origin') ? corsHeaders(c, next) : next()));

  // CSRF: cookie-authenticated state changes must come from this site or an allowed origin.
  app.use('*', async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (
        origin &&
        origin !== publicOrigin(c.req.url, (name) => c.req.header(name), deps.config.proxy) &&
        !deps.config.corsOrigins.includes(origin)
      ) {
        throw new DomainError('ORIGIN_REFUSED');
      }
    }
    await next();
  });

  // Generated once, on first ask: the table does not change while the process runs.
  let document: ReturnType<typeof openApiDocument> | undefined;
  mountRoutes(app, allHandlers, {
    services,
    apiPrefix,
    proxy: deps.config.proxy,
    openApi: () => (document ??= openApiDocument({ apiPrefix, version: process.env.npm_package_version ?? '0.1.0' })),
    policy: { whoMayUpload: deps.config.whoMayUpload },
    checkResponses: deps.config.checkResponses,
  });
  // tus discovery (OPTIONS without an Origin: a browser's preflight is answered by CORS above).
  app.on('OPTIONS', ['/video/tus', '/video/tus/:uploadId'], (c) => tusAnswer(services, c));
  mountMethodRefusals(app, { '/video/tus': ['OPTIONS'], '/video/tus/:uploadId': ['OPTIONS'] });

  app.notFound(() => {
    throw new DomainError('ROUTE_NOT_FOUND');
  });

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    const logger = c.get('logger') ?? deps.logger;
    // Hono's own refusals (a malformed JSON body) are the caller's fault, not ours.
    const known =
      error instanceof HTTPException && error.status < 500
        ? new DomainError('VALIDATION_FAILED', { issues: [{ path: '(body)', message: error.message }] })
        : error;
    const outage = known instanceof DomainError ? null : outageOf(known);
    if (outage)
      logger.warn('request refused: service trouble', {
        code: outage.code,
        err: error,
        method: c.req.method,
        path: c.req.path,
      });
    else if (!(known instanceof DomainError))
      logger.error('unhandled error', { err: error, method: c.req.method, path: c.req.path });
    const answer = errorAnswer(known, c.req.raw.headers, requestId);
    for (const [name, value] of Object.entries(answer.headers)) c.header(name, value);
    c.header('X-Request-Id', requestId);
    return c.json(answer.body, answer.status as 400);
  });

  return app;
}
