import { readProxyHops, readPublicSiteUrl, type ProxySettings } from './http/public-origin.ts';
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
  /** Uploaded and generated media (images; later videos). */
  mediaDir: string;
  /** Resumable uploads (file store); with S3, only temporary copies while a job processes one. */
  uploadDir: string;
  /** An S3-compatible bucket for resumable uploads instead of uploadDir (S3_BUCKET turns it on). */
  uploadS3?: S3UploadConfig;
  uploadMaxBytes: number;
  /** The largest audio file (AUDIO_UPLOAD_MAX_BYTES; 2 GiB: two hours of 16-bit stereo WAV fit). */
  audioUploadMaxBytes: number;
  whoMayUpload: 'members' | 'staff';
  /** Work media jobs in this process (WORKER=0 leaves them to another process of the same code). */
  runWorker: boolean;
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
    uploadS3: readS3UploadConfig(env),
    uploadMaxBytes: Number(env.UPLOAD_MAX_BYTES) || 8 * 1024 ** 3,
    audioUploadMaxBytes: Number(env.AUDIO_UPLOAD_MAX_BYTES) || 2 * 1024 ** 3,
    whoMayUpload: env.UPLOAD_ROLE === 'staff' ? 'staff' : 'members',
    runWorker: env.WORKER !== '0',
    demo: env.DEMO !== '0',
    sitemapVideosPerFile: Math.min(SITEMAP_VIDEOS_PER_FILE_MAX, Math.max(1, Math.floor(Number(env.SITEMAP_VIDEOS_PER_FILE)) || SITEMAP_VIDEOS_PER_FILE)),
    runtime,
  };
}
