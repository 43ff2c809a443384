import { readProxyHops, readPublicSiteUrl, type ProxySettings } from './http/public-origin.ts';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { readRuntimeConfig, type RuntimeConfig } from '../src/lib/config.ts';
import { readImageProvider } from '../src/lib/image/provider.ts';
import { JOB_LEASE_MS, JOB_RETRY_DELAY_MS } from './jobs/queue.ts';
import { SITEMAP_VIDEOS_PER_FILE, SITEMAP_VIDEOS_PER_FILE_MAX } from '../src/lib/navigation/sitemap.ts';
import { z } from 'zod';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** PostgreSQL connections opened at start and kept while idle (server/db/database.ts). */
  databasePoolKept: number;
  /** Redis for the event bus between processes (pub/sub); unset: PostgreSQL's LISTEN/NOTIFY, or in-process on PGlite. */
  redisUrl?: string;
  /** Live danmaku streams: the heartbeat comment's interval, and how many bytes one slow viewer may have waiting before being dropped. */
  live: { heartbeatMs: number; maxBufferedBytes: number };
  /** Notification e-mail digests: at most one per member this often, looked for this often (0: never). */
  notifications: { digestIntervalMs: number; digestCheckMs: number };
  /** Guests' rendered pages kept in the process, in bytes (server/site/page-cache.ts); 0 keeps none. */
  pageCacheBytes: number;
  /** How long views and likes' notifications gather in memory before one write per video or item (decision 0023). */
  hotCounterWindowMs: number;
  /** 'production' hides stacks from every page and response. */
  isDevelopment: boolean;
  /** Check every API answer against its schema (on in development; API_CHECK_RESPONSES=1 elsewhere, as the tests do). */
  checkResponses: boolean;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /** Origins of a separately hosted site allowed to call the API with credentials. */
  corsOrigins: string[];
  /** Where the built site lives (dist/ of `astro build`). */
  distDir: string;
  /** Serve the site from this process; false runs the API alone. */
  serveSite: boolean;
  /** The public address and the proxies in front (PUBLIC_SITE_URL, TRUST_PROXY): see server/http/public-origin.ts. */
  proxy: ProxySettings;
  /** nodemailer SMTP URL; unset writes mails to the outbox folder. */
  smtpUrl?: string;
  mailFrom: string;
  outboxDir: string;
  /** The folder store of the media the site serves (MEDIA_STORE=local, the default). */
  mediaDir: string;
  /** MEDIA_STORE=s3: those media in the S3_* bucket under `prefix` instead (server/media/media-store.ts). */
  mediaS3?: S3UploadConfig & { prefix: string };
  /**
   * MEDIA_PUBLIC_BASE_URL: where public media can be read directly (a CDN, or the bucket's public
   * address), ending in '/'. Public files are then answered with a redirect there; private ones
   * (media not yet approved) are still served by this process, under its access rules.
   */
  mediaPublicBaseUrl?: string;
  /** Resumable uploads (file store); with S3, only temporary copies while a job processes one. */
  uploadDir: string;
  /** An S3-compatible bucket for resumable uploads instead of uploadDir (S3_BUCKET turns it on). */
  uploadS3?: S3UploadConfig;
  uploadMaxBytes: number;
  /** The largest audio file (AUDIO_UPLOAD_MAX_BYTES; 2 GiB: two hours of 16-bit stereo WAV fit). */
  audioUploadMaxBytes: number;
  whoMayUpload: 'members' | 'staff';
  /** A finished upload never published (video, track, photo post) is removed this long after its last byte (UPLOAD_ABANDONED_AFTER_MS). */
  uploadAbandonedAfterMs: number;
  /** How often expired and abandoned uploads are looked for and removed (UPLOAD_SWEEP_MS). */
  uploadSweepMs: number;
  /** Unfinished uploads one member may have open at once (MAX_OPEN_UPLOADS, default 3). */
  maxOpenUploads: number;
  /** Work media jobs in this process (WORKER=0 leaves them to another process of the same code). */
  runWorker: boolean;
  /** How long a job is held without a heartbeat before another worker may take it (JOB_LEASE_MS). */
  jobLeaseMs: number;
  /** The first retry's delay after a failed job, doubled at each attempt (JOB_RETRY_DELAY_MS). */
  jobRetryDelayMs: number;
  /** On SIGTERM, how long requests in flight may take before their connections are closed (SHUTDOWN_GRACE_MS). */
  shutdownGraceMs: number;
  /** Demo uploaders and videos on the first start with an empty database (DEMO=0: none). */
  demo: boolean;
  /** Videos per video sitemap file (1 to SITEMAP_VIDEOS_PER_FILE_MAX). */
  sitemapVideosPerFile: number;
  runtime: RuntimeConfig;
}

export interface S3UploadConfig {
  bucket: string;
  /** Unset: AWS itself; set for MinIO, Garage, Ceph, R2 and the like. */
  endpoint?: string;
  region: string;
  /** Unset (both): the AWS SDK's own credential chain (environment, instance role). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** bucket in the path (host/bucket/key) instead of the host name, as self-hosted servers want. */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * One environment variable: how its text is read (the reader keeps the old rule: an unset, empty
 * or unusable value gives the default, unless the reader throws to stop the start with a message),
 * the default as the README's configuration table shows it, and what it does.
 */
const setting = <T>(read: (raw: string | undefined) => T, shownDefault: string, description: string) =>
  z
    .string()
    .optional()
    .transform((raw) => read(raw))
    .meta({ shownDefault, description });
/** Set (non-empty) or undefined. */
const text = (raw: string | undefined) => raw || undefined;
/** A duration in milliseconds; unset or not a positive number gives the default. */
const positiveMs = (fallback: number) => (raw: string | undefined) =>
  Number(raw) > 0 ? Math.round(Number(raw)) : fallback;
/** On unless set to 0. */
const onUnlessZero = (raw: string | undefined) => raw !== '0';
/** A runtime setting (SPEC §3): read by `readRuntimeConfig` from the same environment, here for its name and default. */
const runtimeSetting = (shownDefault: string, description: string) => setting(text, shownDefault, description);
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/**
 * Every environment variable the server reads: the one place for their names, defaults and
 * descriptions. The README's configuration table is checked against it (tests/unit/config-readme.test.ts).
 */
export const ENVIRONMENT = z.object({
  PORT: setting((raw) => (raw ? Number(raw) : 4321), '4321', 'the port the one process listens on (0: any free port)'),
  HOST: setting((raw) => raw || 'localhost', 'localhost', 'the address it listens on'),
  DATA_DIR: setting(
    (raw) => (raw === ':memory:' ? '' : resolve(raw || 'data')),
    './data',
    "the embedded database's folder; ':memory:' keeps it in memory",
  ),
  DATABASE_URL: setting(text, 'unset', 'a PostgreSQL server instead of PGlite'),
  DATABASE_POOL_KEPT: setting(
    (raw) => (raw === undefined || raw === '' ? 10 : Math.min(10, Math.max(0, Math.floor(Number(raw)) || 0))),
    '10',
    'connections of the pool (10) opened at start and kept open while idle',
  ),
  SERVE_SITE: setting(onUnlessZero, '1', '0 runs the API alone'),
  CORS_ORIGINS: setting(
    (raw) =>
      (raw || '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    'none',
    'site origins allowed to call the API with credentials',
  ),
  PUBLIC_SITE_URL: setting(readPublicSiteUrl, 'unset', "the site's public origin"),
  TRUST_PROXY: setting(readProxyHops, '0', 'the number of proxies in front'),
  SMTP_URL: setting(text, 'unset', 'nodemailer SMTP URL; unset writes mails to the outbox'),
  MAIL_FROM: setting(
    (raw) => raw || 'Kiraboshi <no-reply@kiraboshi.localhost>',
    'Kiraboshi <no-reply@kiraboshi.localhost>',
    "sender of the site's mails",
  ),
  OUTBOX_DIR: setting(text, 'DATA_DIR/outbox', 'where mails go without SMTP'),
  MEDIA_DIR: setting(text, 'DATA_DIR/media', 'the folder media store'),
  MEDIA_STORE: setting((raw) => raw || 'local', 'local', 'local (MEDIA_DIR) or s3 (the S3_* bucket)'),
  S3_MEDIA_PREFIX: setting((raw) => raw ?? 'media/', 'media/', 'where media go in the bucket'),
  MEDIA_PUBLIC_BASE_URL: setting(
    (raw) => readMediaPublicBaseUrl(raw),
    'unset',
    'where public media can be read directly',
  ),
  UPLOAD_DIR: setting(text, 'DATA_DIR/uploads', 'resumable uploads (file store)'),
  S3_BUCKET: setting(text, 'unset', 'an S3-compatible bucket for uploads (and media with MEDIA_STORE=s3)'),
  S3_ENDPOINT: setting(text, 'unset (AWS)', "the S3 server's URL"),
  S3_REGION: setting((raw) => raw || 'us-east-1', 'us-east-1', "the bucket's region"),
  S3_ACCESS_KEY_ID: setting(text, 'unset', 'the key id; with S3_SECRET_ACCESS_KEY or neither'),
  S3_SECRET_ACCESS_KEY: setting(text, 'unset', 'the secret key; with S3_ACCESS_KEY_ID or neither'),
  S3_FORCE_PATH_STYLE: setting(onUnlessZero, '1', 'host/bucket/key addresses; 0 for bucket.host/key'),
  UPLOAD_MAX_BYTES: setting((raw) => Number(raw) || 8 * 1024 ** 3, '8 GiB', 'largest video upload'),
  AUDIO_UPLOAD_MAX_BYTES: setting((raw) => Number(raw) || 2 * 1024 ** 3, '2 GiB', 'largest audio upload'),
  UPLOAD_ABANDONED_AFTER_MS: setting(
    positiveMs(24 * 3_600_000),
    '86400000 (24 h)',
    'a finished upload never published is removed this long after its last byte',
  ),
  UPLOAD_SWEEP_MS: setting(positiveMs(3_600_000), '3600000', 'how often expired and abandoned uploads are looked for'),
  MAX_OPEN_UPLOADS: setting(
    (raw) => (Number(raw) >= 1 ? Math.floor(Number(raw)) : 3),
    '3',
    'unfinished uploads one member may have open at once',
  ),
  UPLOAD_ROLE: setting(
    (raw): 'members' | 'staff' => (raw === 'staff' ? 'staff' : 'members'),
    'members',
    'who may upload: members or staff',
  ),
  WORKER: setting(onUnlessZero, '1', '0 leaves media jobs to another process'),
  JOB_LEASE_MS: setting(
    positiveMs(JOB_LEASE_MS),
    String(JOB_LEASE_MS),
    'how long a worker holds a job without renewing it',
  ),
  JOB_RETRY_DELAY_MS: setting(
    positiveMs(JOB_RETRY_DELAY_MS),
    String(JOB_RETRY_DELAY_MS),
    'first wait before a failed job runs again (doubling)',
  ),
  // Under the 10 s most supervisors (Docker, systemd, Kubernetes) wait before a SIGKILL.
  SHUTDOWN_GRACE_MS: setting(positiveMs(8_000), '8000', 'on SIGTERM, how long requests in flight may finish'),
  REDIS_URL: setting(text, 'unset', 'the event bus between processes over Redis pub/sub'),
  LIVE_HEARTBEAT_MS: setting(
    (raw) => Math.max(50, Number(raw) || 15_000),
    '15000',
    'heartbeat of live danmaku streams',
  ),
  LIVE_MAX_BUFFERED_BYTES: setting(
    (raw) => Math.max(1024, Number(raw) || 64 * 1024),
    '65536',
    'what one live viewer may leave unread before the stream is cut',
  ),
  NOTIFICATION_DIGEST_MS: setting(
    (raw) => Math.max(1000, Number(raw) || 3_600_000),
    '3600000',
    'the least time between two notification e-mails to one member',
  ),
  NOTIFICATION_DIGEST_CHECK_MS: setting(
    (raw) => (raw === '0' ? 0 : Math.max(100, Number(raw) || 60_000)),
    '60000',
    'how often due notification e-mails are looked for (0: never, for tests)',
  ),
  PAGE_CACHE_MB: setting(
    (raw) => (raw === undefined || raw === '' ? 64 : Math.max(0, Number(raw) || 0)),
    '64',
    "memory for guests' pages kept in the process (0: none)",
  ),
  HOT_COUNTER_WINDOW_MS: setting(
    (raw) => Math.min(3_600_000, Math.max(10, Number(raw) || 1000)),
    '1000',
    "how long views and likes' notifications gather in memory before one write per video or item",
  ),
  DEMO: setting(onUnlessZero, '1', 'demo uploaders and media on the first start with an empty database'),
  SITEMAP_VIDEOS_PER_FILE: setting(
    (raw) => Math.min(SITEMAP_VIDEOS_PER_FILE_MAX, Math.max(1, Math.floor(Number(raw)) || SITEMAP_VIDEOS_PER_FILE)),
    String(SITEMAP_VIDEOS_PER_FILE),
    'videos per video sitemap file',
  ),
  LOG_LEVEL: setting(
    (raw) => LOG_LEVELS.find((level) => level === raw) ?? 'info',
    'info',
    'debug, info, warn or error',
  ),
  NODE_ENV: setting(text, 'unset', 'development shows stacks and checks every answer'),
  API_CHECK_RESPONSES: setting((raw) => raw === '1', '0', 'check every API answer against its schema'),
  DIST_DIR: setting((raw) => resolve(raw || 'dist'), 'dist', 'where the built site lives'),
  PUBLIC_API_BASE: runtimeSetting('/api/', 'backend base address the browser calls'),
  PUBLIC_IMAGE_PROVIDER: runtimeSetting(
    'local',
    "who makes the sizes of pictures: local (the site's own files) or template (a resizing service)",
  ),
  PUBLIC_IMAGE_PROVIDER_URL: runtimeSetting('unset', "the template provider's address, with {width} and {src}"),
  PUBLIC_VIDEO_MANIFEST_URL: runtimeSetting('/media/videos/{videoId}/master.m3u8', 'video manifest URL template'),
  PUBLIC_I18N_DETECT_BROWSER_LANGUAGE: runtimeSetting('1', 'detect the language on / from the cookie and the browser'),
  PUBLIC_I18N_FALLBACK_LOCALE: runtimeSetting('zhs', 'used when neither names a supported language'),
  PUBLIC_I18N_ROOT_REDIRECT: runtimeSetting('unset', 'always redirect / to that locale'),
  PUBLIC_I18N_ROOT_REDIRECT_STATUS: runtimeSetting('302', 'the status of that redirect'),
  PUBLIC_I18N_DOMAIN_LOCALES: runtimeSetting('unset', 'host=locale pairs: hosts that pin a language'),
  PUBLIC_I18N_BASE_URL: runtimeSetting('PUBLIC_SITE_URL', 'base of absolute URLs (hreflang)'),
  PUBLIC_ALLOWED_EXTERNAL_ORIGINS: runtimeSetting('none', 'origins that links may leave the site for'),
  PUBLIC_IN_CONTEXT_SCRIPT_URL: runtimeSetting("Crowdin's JIPT script", 'the in-context translation script'),
  PUBLIC_IN_CONTEXT_MENU: runtimeSetting('0', 'offer in-context translation in every language menu'),
});
export type Environment = z.output<typeof ENVIRONMENT>;

const S3_SETTINGS = [
  'S3_BUCKET',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];

/** The S3 upload store's settings, or none; a half-done setup is refused rather than ignored. */
function readS3UploadConfig(env: Env, e: Environment): S3UploadConfig | undefined {
  const given = S3_SETTINGS.filter((name) => env[name]);
  if (!given.length) return undefined;
  if (!e.S3_BUCKET)
    throw new Error(
      `${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not: set S3_BUCKET to store uploads in S3, or unset the S3_* settings to keep them under UPLOAD_DIR`,
    );
  if (!e.S3_ACCESS_KEY_ID !== !e.S3_SECRET_ACCESS_KEY)
    throw new Error(
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain',
    );
  if (e.S3_ENDPOINT && !(/^https?:\/\//.test(e.S3_ENDPOINT) && URL.canParse(e.S3_ENDPOINT)))
    throw new Error(`S3_ENDPOINT must be a URL such as http://127.0.0.1:3900, not "${e.S3_ENDPOINT}"`);
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    region: e.S3_REGION,
    credentials: e.S3_ACCESS_KEY_ID
      ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! }
      : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE,
  };
}

/** MEDIA_PUBLIC_BASE_URL: an http(s) address ending in '/' under which every media key is public. */
export function readMediaPublicBaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^https?:\/\/.+\/$/.test(value) || !URL.canParse(value))
    throw new Error(
      `MEDIA_PUBLIC_BASE_URL must be an http(s) address ending in a slash, like https://cdn.example/media/, not "${value}"`,
    );
  return value;
}

/** MEDIA_STORE: 'local' (MEDIA_DIR) or 's3' (the S3_* bucket, under S3_MEDIA_PREFIX). */
export function readMediaS3Config(
  env: Env,
  e: Environment = ENVIRONMENT.parse(env),
  uploadS3: S3UploadConfig | undefined = readS3UploadConfig(env, e),
): ServerConfig['mediaS3'] {
  const store = e.MEDIA_STORE;
  if (store !== 'local' && store !== 's3') throw new Error(`MEDIA_STORE must be local or s3, not "${store}"`);
  if (store === 'local') return undefined;
  if (!uploadS3)
    throw new Error(
      'MEDIA_STORE=s3 needs the bucket: set S3_BUCKET (and S3_ENDPOINT and the keys for a self-hosted server)',
    );
  const prefix = e.S3_MEDIA_PREFIX;
  if (prefix && !/^[\w-]+(\/[\w-]+)*\/$/.test(prefix))
    throw new Error(`S3_MEDIA_PREFIX must be empty or end with a slash, like media/, not "${prefix}"`);
  return { ...uploadS3, prefix };
}

export function readServerConfig(env: Env = process.env): ServerConfig {
  const e = ENVIRONMENT.parse(env);
  const uploadS3 = readS3UploadConfig(env, e);
  const runtime = readRuntimeConfig(env);
  // A provider that cannot work stops the start (the pages would show no pictures).
  readImageProvider(runtime.imageProvider, runtime.imageProviderUrl);
  const dataDir = e.DATA_DIR;
  // Without a data folder (':memory:') files go to throwaway folders.
  const underData = (name: string) =>
    resolve(dataDir ? join(dataDir, name) : join(tmpdir(), `kiraboshi-${name}-${process.pid}`));
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolKept: e.DATABASE_POOL_KEPT,
    redisUrl: e.REDIS_URL,
    live: { heartbeatMs: e.LIVE_HEARTBEAT_MS, maxBufferedBytes: e.LIVE_MAX_BUFFERED_BYTES },
    notifications: { digestIntervalMs: e.NOTIFICATION_DIGEST_MS, digestCheckMs: e.NOTIFICATION_DIGEST_CHECK_MS },
    pageCacheBytes: Math.round(e.PAGE_CACHE_MB * 1024 * 1024),
    hotCounterWindowMs: e.HOT_COUNTER_WINDOW_MS,
    isDevelopment: e.NODE_ENV === 'development',
    checkResponses: e.NODE_ENV === 'development' || e.API_CHECK_RESPONSES,
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    distDir: e.DIST_DIR,
    serveSite: e.SERVE_SITE,
    proxy: { publicSiteUrl: e.PUBLIC_SITE_URL, proxyHops: e.TRUST_PROXY },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    outboxDir: e.OUTBOX_DIR ? resolve(e.OUTBOX_DIR) : underData('outbox'),
    mediaDir: e.MEDIA_DIR ? resolve(e.MEDIA_DIR) : underData('media'),
    uploadDir: e.UPLOAD_DIR ? resolve(e.UPLOAD_DIR) : underData('uploads'),
    uploadS3,
    mediaS3: readMediaS3Config(env, e, uploadS3),
    mediaPublicBaseUrl: e.MEDIA_PUBLIC_BASE_URL,
    uploadMaxBytes: e.UPLOAD_MAX_BYTES,
    audioUploadMaxBytes: e.AUDIO_UPLOAD_MAX_BYTES,
    whoMayUpload: e.UPLOAD_ROLE,
    uploadAbandonedAfterMs: e.UPLOAD_ABANDONED_AFTER_MS,
    uploadSweepMs: e.UPLOAD_SWEEP_MS,
    maxOpenUploads: e.MAX_OPEN_UPLOADS,
    runWorker: e.WORKER,
    jobLeaseMs: e.JOB_LEASE_MS,
    jobRetryDelayMs: e.JOB_RETRY_DELAY_MS,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    demo: e.DEMO,
    sitemapVideosPerFile: e.SITEMAP_VIDEOS_PER_FILE,
    runtime,
  };
}
