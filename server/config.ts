import { readProxyHops, readPublicSiteUrl, type ProxySettings } from './http/public-origin.ts';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { readRuntimeConfig, type RuntimeConfig } from '../src/lib/config.ts';
import { JOB_LEASE_MS, JOB_RETRY_DELAY_MS } from './jobs/queue.ts';
import { SITEMAP_VIDEOS_PER_FILE, SITEMAP_VIDEOS_PER_FILE_MAX } from '../src/lib/navigation/sitemap.ts';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  /** Redis for the event bus between processes (pub/sub); unset: PostgreSQL's LISTEN/NOTIFY, or in-process on PGlite. */
  redisUrl?: string;
  /** Live danmaku streams: the heartbeat comment's interval, and how many bytes one slow viewer may have waiting before being dropped. */
  live: { heartbeatMs: number; maxBufferedBytes: number };
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

/** A duration setting in milliseconds; unset or not a positive number gives the default. */
const positiveMs = (value: string | undefined, fallback: number) => (Number(value) > 0 ? Math.round(Number(value)) : fallback);

const S3_SETTINGS = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'];

/** The S3 upload store's settings, or none; a half-done setup is refused rather than ignored. */
function readS3UploadConfig(env: Env): S3UploadConfig | undefined {
  const given = S3_SETTINGS.filter((name) => env[name]);
  if (!given.length) return undefined;
  if (!env.S3_BUCKET) throw new Error(`${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set but S3_BUCKET is not: set S3_BUCKET to store uploads in S3, or unset the S3_* settings to keep them under UPLOAD_DIR`);
  if (!env.S3_ACCESS_KEY_ID !== !env.S3_SECRET_ACCESS_KEY) throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither to use the AWS credential chain');
  if (env.S3_ENDPOINT && !(/^https?:\/\//.test(env.S3_ENDPOINT) && URL.canParse(env.S3_ENDPOINT))) throw new Error(`S3_ENDPOINT must be a URL such as http://127.0.0.1:3900, not "${env.S3_ENDPOINT}"`);
  return {
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT || undefined,
    region: env.S3_REGION || 'us-east-1',
    credentials: env.S3_ACCESS_KEY_ID ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY! } : undefined,
    forcePathStyle: env.S3_FORCE_PATH_STYLE !== '0',
  };
}

/** MEDIA_PUBLIC_BASE_URL: an http(s) address ending in '/' under which every media key is public. */
export function readMediaPublicBaseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (!/^https?:\/\/.+\/$/.test(value) || !URL.canParse(value)) throw new Error(`MEDIA_PUBLIC_BASE_URL must be an http(s) address ending in a slash, like https://cdn.example/media/, not "${value}"`);
  return value;
}

/** MEDIA_STORE: 'local' (MEDIA_DIR) or 's3' (the S3_* bucket, under S3_MEDIA_PREFIX). */
export function readMediaS3Config(env: Env, uploadS3: S3UploadConfig | undefined = readS3UploadConfig(env)): ServerConfig['mediaS3'] {
  const store = env.MEDIA_STORE || 'local';
  if (store !== 'local' && store !== 's3') throw new Error(`MEDIA_STORE must be local or s3, not "${store}"`);
  if (store === 'local') return undefined;
  if (!uploadS3) throw new Error('MEDIA_STORE=s3 needs the bucket: set S3_BUCKET (and S3_ENDPOINT and the keys for a self-hosted server)');
  const prefix = env.S3_MEDIA_PREFIX ?? 'media/';
  if (prefix && !/^[\w-]+(\/[\w-]+)*\/$/.test(prefix)) throw new Error(`S3_MEDIA_PREFIX must be empty or end with a slash, like media/, not "${prefix}"`);
  return { ...uploadS3, prefix };
}

export function readServerConfig(env: Env = process.env): ServerConfig {
  const uploadS3 = readS3UploadConfig(env);
  const runtime = readRuntimeConfig(env);
  // ':memory:' keeps the embedded database in memory (tests, throwaway demos).
  const dataDir = env.DATA_DIR === ':memory:' ? '' : resolve(env.DATA_DIR || 'data');
  const level = env.LOG_LEVEL as ServerConfig['logLevel'] | undefined;
  return {
    port: env.PORT ? Number(env.PORT) : 4321,
    host: env.HOST || 'localhost',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    live: {
      heartbeatMs: Math.max(50, Number(env.LIVE_HEARTBEAT_MS) || 15_000),
      maxBufferedBytes: Math.max(1024, Number(env.LIVE_MAX_BUFFERED_BYTES) || 64 * 1024),
    },
    isDevelopment: env.NODE_ENV === 'development',
    checkResponses: env.NODE_ENV === 'development' || env.API_CHECK_RESPONSES === '1',
    logLevel: level && ['debug', 'info', 'warn', 'error'].includes(level) ? level : 'info',
    corsOrigins: (env.CORS_ORIGINS || '').split(',').map((s) => s.trim()).filter(Boolean),
    distDir: resolve(env.DIST_DIR || 'dist'),
    serveSite: env.SERVE_SITE !== '0',
    proxy: { publicSiteUrl: readPublicSiteUrl(env.PUBLIC_SITE_URL), proxyHops: readProxyHops(env.TRUST_PROXY) },
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || 'Kiraboshi <no-reply@kiraboshi.localhost>',
    // Mails of an in-memory instance go to a throwaway folder.
    outboxDir: resolve(env.OUTBOX_DIR || (dataDir ? join(dataDir, 'outbox') : join(tmpdir(), `kiraboshi-outbox-${process.pid}`))),
    mediaDir: resolve(env.MEDIA_DIR || (dataDir ? join(dataDir, 'media') : join(tmpdir(), `kiraboshi-media-${process.pid}`))),
    uploadDir: resolve(env.UPLOAD_DIR || (dataDir ? join(dataDir, 'uploads') : join(tmpdir(), `kiraboshi-uploads-${process.pid}`))),
    uploadS3,
    mediaS3: readMediaS3Config(env, uploadS3),
    mediaPublicBaseUrl: readMediaPublicBaseUrl(env.MEDIA_PUBLIC_BASE_URL),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES) || 8 * 1024 ** 3,
    audioUploadMaxBytes: Number(env.AUDIO_UPLOAD_MAX_BYTES) || 2 * 1024 ** 3,
    whoMayUpload: env.UPLOAD_ROLE === 'staff' ? 'staff' : 'members',
    uploadAbandonedAfterMs: positiveMs(env.UPLOAD_ABANDONED_AFTER_MS, 24 * 3_600_000),
    uploadSweepMs: positiveMs(env.UPLOAD_SWEEP_MS, 3_600_000),
    maxOpenUploads: Number(env.MAX_OPEN_UPLOADS) >= 1 ? Math.floor(Number(env.MAX_OPEN_UPLOADS)) : 3,
    runWorker: env.WORKER !== '0',
    jobLeaseMs: positiveMs(env.JOB_LEASE_MS, JOB_LEASE_MS),
    jobRetryDelayMs: positiveMs(env.JOB_RETRY_DELAY_MS, JOB_RETRY_DELAY_MS),
    // Under the 10 s most supervisors (Docker, systemd, Kubernetes) wait before a SIGKILL.
    shutdownGraceMs: positiveMs(env.SHUTDOWN_GRACE_MS, 8_000),
    demo: env.DEMO !== '0',
    sitemapVideosPerFile: Math.min(SITEMAP_VIDEOS_PER_FILE_MAX, Math.max(1, Math.floor(Number(env.SITEMAP_VIDEOS_PER_FILE)) || SITEMAP_VIDEOS_PER_FILE)),
    runtime,
  };
}
