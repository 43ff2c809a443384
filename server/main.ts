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
import { openDatabase, migrateToLatest, assertCjkSearchWorks, type QueryObserver } from './db/database.ts';
import type { ConversationEvents } from './services/conversation-events.ts';
import { createApiApp, apiBasePath } from './app/create-app.ts';
import { createServices } from './services/index.ts';
import { seedDemoCatalogue } from './demo/seed.ts';
import { createRepositories } from './repositories/index.ts';
import { startAdminSocket } from './admin/admin-socket.ts';
import { createSiteHandler } from './site/handler.ts';
import { createPageCache } from './site/page-cache.ts';
import { createMailer } from './mail/mailer.ts';
import { loadSecret } from './media/image-service.ts';
import { createUploadServer } from './media/uploads.ts';
import { uploadKinds } from './media/upload-kinds.ts';
import { createUploadStore, scratchFolder } from './media/upload-store.ts';
import { createMediaStore } from './media/media-store.ts';
import { createMediaServer } from './media/serve-media.ts';
import { startJobWorker } from './jobs/queue.ts';
import { mediaJobHandlers, queueMediaBackfills } from './jobs/media-jobs.ts';
import { startHousekeeping } from './jobs/housekeeping.ts';
import { startUploadSweep, unpublishedTranscode } from './media/unpublished-uploads.ts';
import { createPhotoFiles } from './media/photo-files.ts';
import { createSiteLocals } from './site/site-locals.ts';
import { connectCacheInvalidation } from './events/cache-invalidation.ts';
import { forgetVideoLocally } from './repositories/videos.repository.ts';
import { forgetSessionsLocally } from './repositories/sessions.repository.ts';
import { createRepositoryCaches } from './repositories/caches.ts';
import { createEventBus } from './events/bus.ts';
import { hasControlCharacterInPath } from './http/control-path.ts';
import { loadSecurityHeaders } from './http/security-headers.ts';
import { createDrain } from './http/drain.ts';
import { answerHalfClosedRequests, refuseUnreadBody } from './http/unread-bodies.ts';
import { answerClientErrors, createOutsideApiFailure } from './http/failures.ts';
import { SERVER_NODE_FLAGS, startedWithServerFlags } from './node-flags.ts';

export async function startServer(
  env: Record<string, string | undefined> = process.env,
  hooks: { onQuery?: QueryObserver; conversationEvents?: ConversationEvents } = {},
) {
  const config = readServerConfig(env);
  const logger = createLogger(config.logLevel, { service: 'kiraboshi' });
  // The pool's connections open now, not under the first burst (docs/decisions/0030).
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir || undefined,
    onQuery: hooks.onQuery,
    keptConnections: config.databasePoolKept,
  });
  const applied = await migrateToLatest(database.db).catch(async (error) => {
    await database.close();
    throw error;
  });
  await assertCjkSearchWorks(database.db).catch(async (error) => {
    await database.close();
    throw error;
  });
  logger.info('database ready', { kind: database.kind, migrationsApplied: applied });
  // What this server keeps of its database in memory: its repositories, media server and job worker share it.
  const caches = createRepositoryCaches();
  // The process's one repository set over them: the services, the job worker, the media server,
  // the admin socket and the demo seed all take this one (the CLI, a process of its own, builds its own).
  const repositories = createRepositories(database.db, caches);

  const buildId = await readFile(join(config.distDir, 'client', '_app', 'builds', 'latest.json'), 'utf8')
    .then((text) => (JSON.parse(text) as { id: string }).id)
    .catch(() => null);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, outboxDir: config.outboxDir, from: config.mailFrom, logger });
  const signingSecret = await loadSecret(repositories.secrets, 'upload-signing');
  const apiPrefix = apiBasePath(config.runtime.apiBase);
  const uploadStore = await createUploadStore({ directory: config.uploadDir, s3: config.uploadS3 }).catch(
    async (error) => {
      await database.close();
      throw error;
    },
  );
  // Everything the site serves from uploads (renditions, posters, images): a folder or a bucket.
  const media = await createMediaStore({
    directory: config.mediaDir,
    s3: config.mediaS3,
    scratchDirectory: join(scratchFolder(config.uploadDir), 'media'),
  });
  // Media processing: durable jobs in the database, worked by this process unless WORKER=0.
  const worker = !config.runWorker
    ? null
    : startJobWorker({
        db: database.db,
        logger,
        leaseMs: config.jobLeaseMs,
        retryDelayMs: config.jobRetryDelayMs,
        handlers: mediaJobHandlers({ repositories, uploads: uploadStore, media, logger }),
        // An upload nobody has published yet is transcoded only when nothing else waits.
        background: unpublishedTranscode,
      });
  const uploads = createUploadServer({
    repositories,
    logger,
    store: uploadStore,
    path: `${apiPrefix}/video/tus`,
    kinds: uploadKinds(config),
    whoMayUpload: config.whoMayUpload,
    maxOpenUploads: config.maxOpenUploads,
    corsOrigins: config.corsOrigins,
    onMediaQueued: () => worker?.poke(),
    errorAnswer,
  });
  const stopUploadSweep = await startUploadSweep({
    repositories,
    uploads: uploadStore,
    media,
    logger,
    tus: uploads,
    worker: !!worker,
    abandonedAfterMs: config.uploadAbandonedAfterMs,
    everyMs: config.uploadSweepMs,
  });
  // Messages between the processes of one site (live danmaku, cache invalidation): Redis, else
  // LISTEN/NOTIFY on PostgreSQL, else in-process (PGlite is one process).
  // After a lost bus connection, live streams catch up from the database (set once services exist).
  let onBusReconnect = () => {};
  let listeningPort = config.port;
  const bus = await createEventBus({
    redisUrl: config.redisUrl,
    databaseUrl: config.databaseUrl,
    logger,
    onReconnect: () => onBusReconnect(),
  }).catch(async (error) => {
    await database.close();
    throw error;
  });
  // The composition root: every service once, over this database; the API and the site share them.
  const photoFiles = createPhotoFiles({ uploads: uploadStore, onQueued: () => worker?.poke() });
  const services = createServices({
    repositories,
    databaseKind: database.kind,
    mailer,
    media,
    signingSecret,
    buildId,
    uploads,
    photoFiles,
    bus,
    live: config.live,
    logger,
    hotCounterWindowMs: config.hotCounterWindowMs,
    conversationEvents: hooks.conversationEvents,
    // The links in e-mails point at the public address; without one, at this process (its port is known once it listens).
    notifications: {
      ...config.notifications,
      apiPrefix: `${apiPrefix.replace(/\/$/, '')}/`,
      siteOrigin: () =>
        config.proxy.publicSiteUrl
          ? new URL(config.proxy.publicSiteUrl).origin
          : `http://${config.host}:${listeningPort}`,
    },
  });
  const pageCache =
    config.serveSite && config.pageCacheBytes > 0 ? createPageCache({ maxBytes: config.pageCacheBytes }) : null;
  // Caches of this process that another process's change makes stale (server/events/cache-invalidation.ts).
  const leaveCacheNotices = await connectCacheInvalidation({
    notices: caches.notices,
    bus,
    logger,
    forget: (notice) => {
      // A member's sessions are no page of a guest's: nothing else to forget.
      if (notice.cache === 'session') return forgetSessionsLocally(caches, notice.uid);
      if (notice.cache === 'danmaku') return services.danmaku.forgetCached(notice.videoId);
      if (notice.cache === 'video') forgetVideoLocally(caches, notice.videoId);
      pageCache?.clear();
    },
  });
  onBusReconnect = () =>
    void services.live.resync().catch((error) => logger.warn('live danmaku could not catch up', { err: error }));
  const stopHousekeeping = startHousekeeping(services, logger);
  const api = createApiApp({ logger, config, services });
  const apiListener = getRequestListener(api.fetch);
  const serveMedia = createMediaServer({
    repositories,
    caches,
    catalogue: services.catalogue,
    media,
    publicBaseUrl: config.mediaPublicBaseUrl,
  });
  const siteLocals = createSiteLocals(services, {
    isDevelopment: config.isDevelopment,
    sitemapVideosPerFile: config.sitemapVideosPerFile,
    logger,
  });
  const securityHeaders = await loadSecurityHeaders(config);
  const site = config.serveSite
    ? await createSiteHandler(config, siteLocals, logger, securityHeaders, pageCache)
    : null;

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    // Every answer (API, media, pages, errors) carries them; pages refine their policy.
    securityHeaders.apply(res, path);
    if (drain.refused(req, res, path === apiPrefix || path.startsWith(`${apiPrefix}/`))) return;
    if (path === apiPrefix || path.startsWith(`${apiPrefix}/`)) {
      void apiListener(req, res);
      return;
    }
    // A control character (%00…) names no page or file: refused before anything looks it up.
    if (hasControlCharacterInPath(path)) {
      res
        .writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' })
        .end(STATUS_CODES[400]);
      return;
    }
    // Pages and media take no body: refused before it is read (server/http/unread-bodies.ts).
    if ((path.startsWith('/media/') || site) && refuseUnreadBody(req, res)) return;
    if (path.startsWith('/media/')) {
      serveMedia(req, res, path.slice('/media'.length)).catch((error) =>
        failedOutsideApi(res, error, 'media request failed', path),
      );
      return;
    }
    if (!site) {
      void apiListener(req, res);
      return;
    }
    site(req, res).catch((error) => failedOutsideApi(res, error, 'site request failed', path));
  });
  const failedOutsideApi = createOutsideApiFailure(logger);
  // Requests being answered, for a graceful shutdown: let them finish, then say how many did.
  const inFlight = new Set<ServerResponse>();
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  // While shutting down, no answer keeps its connection alive (server/http/drain.ts).
  const drain = createDrain(server, inFlight);
  server.keepAliveTimeout = 65_000;
  answerHalfClosedRequests(server);
  answerClientErrors(server);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  listeningPort = port;
  queueMediaBackfills({ repositories, logger, onQueued: () => worker?.poke() });
  if (config.demo) {
    seedDemoCatalogue({
      db: database.db,
      repositories,
      uploads: uploadStore,
      logger,
      onQueued: () => worker?.poke(),
    }).catch((error) => logger.warn('the demo catalogue could not be created', { err: error }));
  }
  // While this process holds the embedded database, `npm run cli` asks it over DATA_DIR/admin.sock (0600).
  const embeddedDataDir =
    !config.databaseUrl && config.dataDir && config.dataDir !== ':memory:' ? config.dataDir : null;
  const closeAdminSocket = embeddedDataDir
    ? await startAdminSocket({ dataDir: embeddedDataDir, repositories, logger }).catch((error: Error) => {
        logger.warn('the admin socket could not be opened: stop the server to use npm run cli', { err: error });
        return async () => {};
      })
    : async () => {};
  logger.info('listening', {
    url: `http://${config.host}:${port}/`,
    api: apiPrefix,
    site: !!site,
    dataDir: config.databaseUrl ? undefined : config.dataDir,
    uploads: config.uploadS3 ? `s3://${config.uploadS3.bucket}` : config.uploadDir,
    media: config.mediaS3 ? `s3://${config.mediaS3.bucket}/${config.mediaS3.prefix}` : config.mediaDir,
  });

  // Started another way than `npm start`, `npm run serve` or the image (docs/decisions/0042).
  if (import.meta.main && !startedWithServerFlags())
    logger.warn('started without the server flags: scavenges of a larger young generation stop requests longer', {
      flags: SERVER_NODE_FLAGS.join(' '),
      next: `node ${SERVER_NODE_FLAGS.join(' ')} server/main.ts (npm run serve)`,
    });

  // A new site: say how to make its first administrator (the server may keep running meanwhile).
  // The first-run page takes this process's one-time token, printed only here (and only while it is open).
  if (await services.firstRun.open().catch(() => false)) {
    logger.warn('no administrator yet', {
      firstRunPage: `http://${config.host}:${port}/first-run`,
      firstRunToken: services.firstRun.token,
      next: "open the first-run page and give it the token, or: npm run cli -- user:create --email you@example.com --username You --password 'a long passphrase' --role administrator",
      note: 'the CLI works while the server runs; then npm run cli -- invite:create --count 5 for invitation codes',
    });
  }

  let closing: Promise<void> | undefined;
  /**
   * Graceful shutdown: stop accepting connections; let requests in flight finish for up to
   * SHUTDOWN_GRACE_MS (event streams are ended at once: they never finish, and their clients
   * reconnect); meanwhile the running job is stopped and handed back to the queue, its attempt
   * not counted; then the database is closed. The last log line says what was drained.
   */
  const close = (signal?: string) =>
    (closing ??= (async () => {
      const started = Date.now();
      const requestsInFlight = inFlight.size;
      logger.info('shutting down', { signal, requestsInFlight });
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      const adminSocketClosed = closeAdminSocket();
      // Open live streams end now (their viewers reconnect elsewhere), or close() would wait on them.
      services.live.close();
      services.notifications.close();
      drain.begin();
      for (const res of inFlight)
        if (String(res.getHeader('content-type') ?? '').startsWith('text/event-stream')) res.end();
      const workerStopped = worker?.stop() ?? Promise.resolve({ handedBack: [] });
      let requestsCutAtGrace = 0;
      const grace = setTimeout(() => {
        requestsCutAtGrace = inFlight.size;
        server.closeAllConnections();
      }, config.shutdownGraceMs);
      // Connections kept alive are closed as soon as their answer is sent.
      const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
      await serverClosed;
      // Views and likes' notifications gathered in memory, written before the database closes.
      await services
        .flushWrites()
        .catch((error) => logger.warn('writes held in memory could not be flushed', { err: error }));
      clearTimeout(grace);
      clearInterval(idleSweep);
      stopHousekeeping();
      stopUploadSweep();
      const { handedBack } = await workerStopped;
      await adminSocketClosed;
      await leaveCacheNotices();
      await bus.close();
      await database.close();
      logger.info('stopped', {
        signal,
        ms: Date.now() - started,
        requestsInFlight,
        requestsCutAtGrace,
        jobsHandedBack: handedBack.map((job) => job.id),
        database: 'closed',
      });
    })());

  return {
    server,
    port,
    close,
    config,
    database,
    caches,
    repositories,
    bus,
    services,
    firstRunToken: services.firstRun.token,
  };
}

if (import.meta.main) {
  let stopping = false;
  const running = await startServer().catch((error: Error) => {
    console.error(`Kiraboshi could not start: ${error.message}`);
    process.exit(1);
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      // A second signal (Ctrl-C twice) does not wait for the drain.
      if (stopping) process.exit(1);
      stopping = true;
      running.close(signal).then(
        () => process.exit(0),
        (error: Error) => {
          console.error(`Kiraboshi did not stop cleanly: ${error.message}`);
          process.exit(1);
        },
      );
    });
  }
}
