import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { readRuntimeConfig, type RuntimeConfig } from '../src/lib/config.ts';
import { SITEMAP_VIDEOS_PER_FILE, SITEMAP_VIDEOS_PER_FILE_MAX } from '../src/lib/navigation/sitemap.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** 'production' hides stacks from every page and response. */
  isDevelopment: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Origins of a separately hosted site allowed to call the API with credentials. */
  corsOrigins: string[];
  /** Where the built site lives (dist/ of `astro build`). */
  distDir: string;
  /** Serve the site from this process; false runs the API alone. */
  serveSite: boolean;
  /** Trust X-Forwarded-* headers (behind a proxy or CDN). */
  trustProxy: boolean;
  /** nodemailer SMTP URL; unset writes mails to the outbox folder. */
  smtpUrl?: string;
  mailFrom: string;
  outboxDir: string;
  /** Uploaded and generated media (images; later videos). */
  mediaDir: string;
  /** Unfinished resumable uploads. */
  uploadDir: string;
  uploadMaxBytes: number;
  whoMayUpload: 'members' | 'staff';
  /** Work media jobs in this process (WORKER=0 leaves them to another process of the same code). */
  runWorker: boolean;
  /** Demo uploaders and videos on the first start with an empty database (DEMO=0: none). */
  demo: boolean;
  /** Videos per video sitemap file (1 to SITEMAP_VIDEOS_PER_FILE_MAX). */
  sitemapVideosPerFile: number;
  runtime: RuntimeConfig;
}

type Env = Record<string, string | undefined>;

export function readServerConfig(env: Env = process.env): ServerConfig {
  const runtime = readRuntimeConfig(env);
  // ':memory:' keeps the embedded database in memory (tests, throwaway demos).
  const dataDir = env.DATA_DIR === ':memory:' ? '' : resolve(env.DATA_DIR || 'data');
  const level = env.LOG_LEVEL as ServerConfig['logLevel'] | undefined;
  return {
    port: env.PORT ? Number(env.PORT) : 4321,
    host: env.HOST || 'localhost',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    isDevelopment: env.NODE_ENV === 'development',
    logLevel: level && ['debug', 'info', 'warn', 'error'].includes(level) ? level : 'info',
    corsOrigins: (env.CORS_ORIGINS || '').split(',').map((s) => s.trim()).filter(Boolean),
    distDir: resolve(env.DIST_DIR || 'dist'),
    serveSite: env.SERVE_SITE !== '0',
    trustProxy: env.TRUST_PROXY === '1',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Kiraboshi <no-reply@kiraboshi.localhost>',
    // Mails of an in-memory instance go to a throwaway folder.
    outboxDir: resolve(env.OUTBOX_DIR || (dataDir ? join(dataDir, 'outbox') : join(tmpdir(), `kiraboshi-outbox-${process.pid}`))),
    mediaDir: resolve(env.MEDIA_DIR || (dataDir ? join(dataDir, 'media') : join(tmpdir(), `kiraboshi-media-${process.pid}`))),
    uploadDir: resolve(env.UPLOAD_DIR || (dataDir ? join(dataDir, 'uploads') : join(tmpdir(), `kiraboshi-uploads-${process.pid}`))),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES) || 8 * 1024 ** 3,
    whoMayUpload: env.UPLOAD_ROLE === 'staff' ? 'staff' : 'members',
    runWorker: env.WORKER !== '0',
    demo: env.DEMO !== '0',
    sitemapVideosPerFile: Math.min(SITEMAP_VIDEOS_PER_FILE_MAX, Math.max(1, Math.floor(Number(env.SITEMAP_VIDEOS_PER_FILE)) || SITEMAP_VIDEOS_PER_FILE)),
    runtime,
  };
}
