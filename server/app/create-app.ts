import { Hono } from 'hono';
import { cors } from 'hono/cors';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { ServerConfig } from '../config.ts';
import type { ApiErrorBody } from '../../src/lib/api/contract.ts';
import { AppError, MESSAGE_KEY } from './errors.ts';
import { localMessage } from './request-locale.ts';
import { healthRoutes } from './routes/health.ts';
import { videoRoutes } from './routes/video.ts';
import { userRoutes } from './routes/user.ts';
import { rbacRoutes } from './routes/rbac.ts';
import { imageRoutes } from './routes/images.ts';
import { historyRoutes } from './routes/history.ts';
import { blockRoutes } from './routes/block.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { Viewer } from '../services/sessions.ts';
import { createCatalogue, type Catalogue } from '../services/catalogue.ts';
import { createVideoService, type VideoService } from '../services/videos.ts';
import type { DatabaseKind } from '../db/database.ts';

export interface AppDeps {
  db: Kysely<Database>;
  databaseKind: DatabaseKind;
  logger: Logger;
  config: Pick<ServerConfig, 'corsOrigins' | 'isDevelopment' | 'runtime' | 'trustProxy' | 'whoMayUpload'>;
  mailer: Mailer;
  /** Signs upload URLs of the image service. */
  signingSecret: string;
  mediaDir: string;
  /** The resumable upload endpoint (tus). */
  uploads: { handle(req: Request, body?: ReadableStream<Uint8Array>): Promise<Response> };
  buildId: string | null;
}

export interface AppEnv {
  Variables: { requestId: string; logger: Logger; deps: AppDeps; catalogue: Catalogue; videos: VideoService; viewer?: Viewer | null };
}

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
  const catalogue = createCatalogue(deps.db);
  const videos = createVideoService(deps.db, { mediaDir: deps.mediaDir });

  app.use('*', async (c, next) => {
    const incoming = c.req.header('x-request-id');
    const requestId = incoming && REQUEST_ID_RE.test(incoming) ? incoming : randomUUID();
    const logger = deps.logger.child({ requestId });
    c.set('requestId', requestId);
    c.set('logger', logger);
    c.set('deps', deps);
    c.set('catalogue', catalogue);
    c.set('videos', videos);
    // Set before the handler runs: a header added to a finished response makes Hono rebuild it,
    // copying the whole body (a danmaku segment is about a megabyte).
    c.header('X-Request-Id', requestId);
    const started = performance.now();
    await next();
    logger.info('request', { method: c.req.method, path: c.req.path, status: c.res.status, ms: Math.round(performance.now() - started) });
  });

  // A separately hosted site may call with credentials; same-origin calls need no CORS. Only
  // requests with an Origin get the headers: Hono's cors middleware reads the response early,
  // and that forces a copy of every body (see above), a cost same-origin reads never need.
  const corsHeaders = cors({
    origin: (origin) => (deps.config.corsOrigins.includes(origin) ? origin : null),
    credentials: true,
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Content-Type', 'X-Request-Id', 'X-Client-Language', 'Tus-Resumable', 'Upload-Length', 'Upload-Offset', 'Upload-Metadata', 'Upload-Concat', 'Upload-Defer-Length'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'Stream-Media-Id', 'Location', 'Upload-Offset', 'Upload-Length', 'Tus-Resumable'],
    maxAge: 600,
  });
  app.use('*', (c, next) => (c.req.header('origin') ? corsHeaders(c, next) : next()));

  // CSRF: cookie-authenticated state changes must come from this site or an allowed origin.
  app.use('*', async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const origin = c.req.header('origin');
      if (origin && origin !== new URL(c.req.url).origin && !deps.config.corsOrigins.includes(origin)) {
        throw new AppError('ORIGIN_REFUSED');
      }
    }
    await next();
  });

  app.route('/', healthRoutes());
  app.route('/video', videoRoutes());
  app.route('/user', userRoutes());
  app.route('/rbac', rbacRoutes());
  app.route('/images', imageRoutes());
  app.route('/history', historyRoutes());
  app.route('/block', blockRoutes());

  app.notFound(() => {
    throw new AppError('ROUTE_NOT_FOUND');
  });

  app.onError((error, c) => {
    const requestId = c.get('requestId');
    const logger = c.get('logger') ?? deps.logger;
    const appError = error instanceof AppError ? error : null;
    if (!appError) logger.error('unhandled error', { err: error, method: c.req.method, path: c.req.path });
    const code = appError?.code ?? 'INTERNAL';
    const body: ApiErrorBody = { ...appError?.extra, success: false, code, message: localMessage(c.req.raw.headers, MESSAGE_KEY[code]), requestId };
    if (appError?.issues) body.issues = appError.issues;
    for (const [name, value] of Object.entries(appError?.headers ?? {})) c.header(name, value);
    c.header('X-Request-Id', requestId);
    c.header('Cache-Control', 'no-store');
    return c.json(body, (appError?.status ?? 500) as 400);
  });

  return app;
}
