/**
 * One process: the API under the configured base, the prerendered site and the pages rendered
 * on demand. `SERVE_SITE=0` runs the API alone (site on a CDN, see README).
 */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { errorAnswer } from './app/errors.ts';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { readServerConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { openDatabase, migrateToLatest, assertCjkSearchWorks } from './db/database.ts';
import { createApiApp, apiBasePath } from './app/create-app.ts';
import type { Catalogue } from './services/catalogue.ts';
import { createServices } from './services/index.ts';
import { isStaff } from '../src/lib/policy/policy.ts';
import { seedDemoCatalogue } from './demo/seed.ts';
import { createSiteHandler } from './site/handler.ts';
import { createMailer } from './mail/mailer.ts';
import { loadSecret } from './media/image-service.ts';
import { createSecretsRepository } from './repositories/secrets.repository.ts';
import { createStaticFiles } from './site/static-files.ts';
import { createMediaAccess, privateCacheControl } from './media/media-access.ts';
import { createUploadServer } from './media/uploads.ts';
import { createUploadStore } from './media/upload-store.ts';
import { startJobWorker } from './jobs/queue.ts';
import { FRAME_RATE_JOB, POSTER_SET_JOB, PROBE_JOB, TRANSCODE_JOB, frameRateJob, hlsPath, posterSetJob, probeJob, queueFrameRateBackfill, queuePosterSetBackfill, transcodeJob } from './media/pipeline.ts';
import type { SiteLocals } from './site/locals.ts';
import { DomainError } from './domain/errors.ts';

/**
 * The manifest URL template (/media/videos/{videoId}/…) names a video; its files live under
 * the first part's media folder. Approved videos only; other media paths pass unchanged.
 */
function createManifestAlias(catalogue: Catalogue) {
  return async (path: string): Promise<string | null> => {
    const match = /^\/videos\/(\d{1,15})\/(.+)$/.exec(path);
    if (!match) return path;
    const mediaId = await catalogue.mainMediaId(Number(match[1]));
    return mediaId ? `/${hlsPath(mediaId)}/${match[2]}` : null;
  };
}

export async function startServer(env: Record<string, string | undefined> = process.env) {
  const config = readServerConfig(env);
  const logger = createLogger(config.logLevel, { service: 'kiraboshi' });
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir || undefined });
  const applied = await migrateToLatest(database.db).catch(async (error) => {
    await database.close();
    throw error;
  });
  await assertCjkSearchWorks(database.db).catch(async (error) => {
    await database.close();
    throw error;
  });
  logger.info('database ready', { kind: database.kind, migrationsApplied: applied });

  const buildId = await readFile(join(config.distDir, 'client', '_app', 'builds', 'latest.json'), 'utf8')
    .then((text) => (JSON.parse(text) as { id: string }).id)
    .catch(() => null);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom, logger });
  const signingSecret = await loadSecret(createSecretsRepository(database.db), 'upload-signing');
  const apiPrefix = apiBasePath(config.runtime.apiBase);
  const uploadStore = await createUploadStore({ directory: config.uploadDir, s3: config.uploadS3 }).catch(async (error) => {
    await database.close();
    throw error;
  });
  // Media processing: durable jobs in the database, worked by this process unless WORKER=0.
  const worker = !config.runWorker ? null : startJobWorker({
    db: database.db, logger, handlers: {
      [PROBE_JOB]: probeJob({ db: database.db, uploads: uploadStore, logger }),
      [TRANSCODE_JOB]: transcodeJob({ db: database.db, uploads: uploadStore, mediaDir: config.mediaDir, logger }),
      [FRAME_RATE_JOB]: frameRateJob({ db: database.db, mediaDir: config.mediaDir, logger }),
      [POSTER_SET_JOB]: posterSetJob({ db: database.db, mediaDir: config.mediaDir, logger }),
    },
  });
  const uploads = createUploadServer({
    db: database.db, logger, store: uploadStore, path: `${apiPrefix}/video/tus`,
    maxSizeBytes: config.uploadMaxBytes, whoMayUpload: config.whoMayUpload, corsOrigins: config.corsOrigins,
    onMediaQueued: () => worker?.poke(),
  });
  // Abandoned uploads are removed after their expiry: now, then every hour.
  await uploads.cleanExpired();
  // The composition root: every service once, over this database; the API and the site share them.
  const services = createServices({ db: database.db, databaseKind: database.kind, mailer, mediaDir: config.mediaDir, signingSecret, buildId, uploads });
  const { catalogue, videos: videoService, sessions, rateLimits } = services;
  const cleanup = setInterval(() => {
    uploads.cleanExpired().catch((error) => logger.warn('cleaning expired uploads failed', { err: error }));
    videoService.pruneViews().catch((error) => logger.warn('pruning view records failed', { err: error }));
    rateLimits.prune().catch((error) => logger.warn('pruning rate-limit counters failed', { err: error }));
  }, 3_600_000);
  cleanup.unref();
  const api = createApiApp({ logger, config, services });
  const serveMedia = createStaticFiles(config.mediaDir);
  const apiListener = getRequestListener(api.fetch);
  const manifestAlias = createManifestAlias(catalogue);
  const mediaAccess = createMediaAccess(database.db);
  /** A media request: the file if this viewer may read it (media-access.ts); false answers 404. */
  const serveMediaFile = async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    const file = await manifestAlias(path);
    const access = file === null ? null : await mediaAccess(file, req.headers.cookie);
    if (file === null || !access) return false;
    return serveMedia(req, res, file, access === 'private' ? { 'Cache-Control': privateCacheControl(file) } : {});
  };

  const siteLocals: SiteLocals = {
    isDevelopment: config.isDevelopment,
    viewer: (request) => sessions.viewerFromCookies(request.headers.get('cookie')),
    videoExists: (id) => catalogue.videoExists(id),
    publicUser: (uid) => services.profiles.publicProfile(uid, null),
    video: async (videoId, request) => {
      const viewer = await sessions.viewerFromCookies(request.headers.get('cookie'));
      return catalogue.video(videoId, viewer ? { uid: viewer.uid, isStaff: isStaff(viewer) } : null);
    },
    collection: async (collectionId, request, page) => {
      const viewer = await sessions.viewerFromCookies(request.headers.get('cookie'));
      return services.collections.get(collectionId, viewer?.uid ?? null, page)
        .then((found) => ({ success: true as const, ...found }), (error) => (error instanceof DomainError && error.code === 'NOT_FOUND' ? null : Promise.reject(error)));
    },
    sitemapVideoFiles: () => catalogue.sitemapVideoFiles(config.sitemapVideosPerFile),
    sitemapVideos: (file) => catalogue.sitemapVideos(file, config.sitemapVideosPerFile),
    homeVideos: (page) => catalogue.home(page),
    categoryVideos: (category, page) => catalogue.byCategory(category, page),
    userVideos: async (uid, request, page) => {
      const viewer = await sessions.viewerFromCookies(request.headers.get('cookie'));
      return catalogue.byUploader(uid, viewer ? { uid: viewer.uid, isStaff: isStaff(viewer) } : null, page);
    },
  };
  const site = config.serveSite ? await createSiteHandler(config, siteLocals, logger) : null;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === apiPrefix || path.startsWith(`${apiPrefix}/`)) {
      void apiListener(req, res);
      return;
    }
    if (path.startsWith('/media/')) {
      serveMediaFile(req, res, path.slice('/media'.length))
        .then((served) => {
          // Not stored by shared caches: the same path may be there for its uploader, or later.
          if (!served) res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('Not Found');
        })
        .catch((error) => {
          logger.error('media request failed', { err: error, path });
          if (!res.headersSent) res.writeHead(500).end();
        });
      return;
    }
    if (!site) {
      void apiListener(req, res);
      return;
    }
    site(req, res).catch((error) => {
      logger.error('site request failed', { err: error, path });
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('Internal Server Error');
    });
  });
  server.keepAliveTimeout = 65_000;
  // A request Node refuses before any handler sees it (headers or URL over 16 KB, a malformed
  // request line) gets the API's error shape instead of an empty answer and a reset connection.
  server.on('clientError', (error: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) return socket.destroy();
    const answer = errorAnswer(new DomainError(error.code === 'HPE_HEADER_OVERFLOW' ? 'HEADERS_TOO_LARGE' : 'VALIDATION_FAILED'), new Headers());
    const body = JSON.stringify(answer.body);
    socket.end(`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${body}`);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // Media from before frame rates (migration 0013) or poster sets (0022) get theirs as jobs: worked one
  // at a time with the queue's bounded retries, never delaying the start (not awaited).
  for (const [what, queue] of [['frame rates', queueFrameRateBackfill], ['poster sets', queuePosterSetBackfill]] as const) {
    queue(database.db)
      .then((queued) => {
        if (!queued) return;
        logger.info(`${what} to backfill`, { queued });
        worker?.poke();
      })
      .catch((error) => logger.warn(`queueing the ${what} backfill failed`, { err: error }));
  }
  if (config.demo) {
    seedDemoCatalogue({ db: database.db, uploads: uploadStore, logger, onQueued: () => worker?.poke() })
      .catch((error) => logger.warn('the demo catalogue could not be created', { err: error }));
  }
  logger.info('listening', {
    url: `http://${config.host}:${port}/`, api: apiPrefix, site: !!site, dataDir: config.databaseUrl ? undefined : config.dataDir,
    uploads: config.uploadS3 ? `s3://${config.uploadS3.bucket}` : config.uploadDir,
  });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      logger.info('shutting down');
      server.closeIdleConnections();
      const forced = setTimeout(() => server.closeAllConnections(), 10_000);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearTimeout(forced);
      clearInterval(cleanup);
      await worker?.stop();
      await database.close();
      logger.info('stopped');
    })());

  return { server, port, close, config, database };
}

if (import.meta.main) {
  const running = await startServer().catch((error: Error) => {
    console.error(`Kiraboshi could not start: ${error.message}`);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      void running.close().then(() => process.exit(0));
    });
  }
}
