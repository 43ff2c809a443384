/**
 * Administration from the command line, at any time: with DATABASE_URL it opens the database;
 * with the embedded database it asks the running server over DATA_DIR/admin.sock (a Unix socket
 * only the server's user may open), and opens DATA_DIR itself when no server runs.
 *   npm run cli -- user:create --email E --username U --password P [--nickname N] [--role administrator]
 *   npm run cli -- invite:create [--count 3]
 *   npm run cli -- media:to-s3 [--from DIR] [--dry-run]   (needs no database; the S3_* settings)
 *   npm run cli -- seed:scale --videos N --users N [--danmaku-per-video N] [--comments-per-video N]
 *     [--follows-per-user N] [--history-per-user N] [--seed N]   (a big generated catalogue, issue 30)
 */
import { parseArgs } from 'node:util';
import { readMediaS3Config, readServerConfig } from '../server/config.ts';
import { join, resolve } from 'node:path';
import { openDatabase, migrateToLatest } from '../server/db/database.ts';
import { runAdminCommand, type AdminRequest } from '../server/admin/commands.ts';
import { ADMIN_SOCKET_NAME, askRunningServer } from '../server/admin/admin-socket.ts';
import { createRepositories } from '../server/repositories/index.ts';
import { ROLES } from '../src/lib/policy/policy.ts';
import { DomainError } from '../server/domain/errors.ts';
import { translatorFor } from '../src/lib/i18n/catalogs.ts';
import { ERROR_MESSAGE_KEY as MESSAGE_KEY } from '../src/lib/api/errors.ts';

const USAGE = `Usage:
  npm run cli -- user:create --email E --username U --password P [--nickname N] [--role ${ROLES.join('|')}]
  npm run cli -- invite:create [--count N]
  npm run cli -- media:to-s3 [--from MEDIA_DIR] [--dry-run]
  npm run cli -- seed:scale --videos N --users N [--danmaku-per-video 100] [--comments-per-video 10] [--follows-per-user 20] [--history-per-user 50] [--seed 30]`;

const SEED_SCALE_OPTIONS = [
  'videos',
  'users',
  'danmaku-per-video',
  'comments-per-video',
  'follows-per-user',
  'history-per-user',
  'seed',
] as const;

/**
 * seed:scale: fills the database (DATABASE_URL, or the embedded one in DATA_DIR, which no server
 * may hold) with a generated catalogue of this size (server/demo/scale-seed.ts), printing each
 * table's rows and rows per second.
 */
async function seedScaleCatalogue(values: Record<string, string | boolean | undefined>): Promise<number> {
  const numbers: Record<string, number> = {};
  for (const name of SEED_SCALE_OPTIONS) {
    const text = values[name];
    if (text === undefined) continue;
    const n = Number(text);
    if (!Number.isInteger(n) || n < 0) {
      console.error(`--${name} must be a whole number, not "${text}".\n${USAGE}`);
      return 2;
    }
    numbers[name] = n;
  }
  if (!numbers.videos || !numbers.users || numbers.users < 2) {
    console.error(`seed:scale needs --videos (at least 1) and --users (at least 2).\n${USAGE}`);
    return 2;
  }
  const { seedScale } = await import('../server/demo/scale-seed.ts');
  const config = readServerConfig();
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir || undefined });
  try {
    await migrateToLatest(database.db);
    const report = await seedScale(
      database.db,
      { databaseUrl: config.databaseUrl },
      {
        videos: numbers.videos,
        users: numbers.users,
        danmakuPerVideo: numbers['danmaku-per-video'] ?? 100,
        commentsPerVideo: numbers['comments-per-video'] ?? 10,
        followsPerUser: numbers['follows-per-user'] ?? 20,
        historyPerUser: numbers['history-per-user'] ?? 50,
        seed: numbers.seed,
      },
      (line) => console.log(line),
    );
    console.log(
      `${report.rows} rows in ${report.seconds} s (${report.rowsPerSecond} rows/s written; statistics ${report.analyzeSeconds} s)`,
    );
    console.log(JSON.stringify(report.landmarks));
    return 0;
  } finally {
    await database.close();
  }
}

/**
 * media:to-s3: copies the media folder into the bucket of the S3_* settings (under
 * S3_MEDIA_PREFIX), before the site switches to MEDIA_STORE=s3. Safe to run again and again.
 */
async function copyMediaToBucket(from: string | undefined, dryRun: boolean): Promise<number> {
  // Loaded here: the S3 SDK would slow every other command's start.
  const { createMediaStore } = await import('../server/media/media-store.ts');
  const { copyMediaFolder, progressPrinter } = await import('../server/media/copy-media.ts');
  const { scratchFolder } = await import('../server/media/upload-store.ts');
  const config = readServerConfig({ ...process.env, MEDIA_STORE: 'local' });
  const s3 = readMediaS3Config({ ...process.env, MEDIA_STORE: 's3' });
  const folder = resolve(from ?? config.mediaDir);
  const store = await createMediaStore({
    directory: folder,
    s3,
    scratchDirectory: join(scratchFolder(config.uploadDir), 'media'),
  });
  console.log(`${dryRun ? 'Dry run: would copy' : 'Copying'} ${folder} to s3://${s3!.bucket}/${s3!.prefix}`);
  const report = await copyMediaFolder({ folder, store, dryRun, onProgress: progressPrinter(process.stderr) });
  const mib = (report.bytesCopied / 1048576).toFixed(1);
  console.log(
    `${report.files} files: ${report.copied} ${dryRun ? 'to copy' : 'copied'} (${mib} MiB), ${report.skipped} already in the bucket.`,
  );
  for (const key of report.refused) console.error(`Not copied (not a media path): ${key}`);
  return report.refused.length ? 1 : 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      email: { type: 'string' },
      username: { type: 'string' },
      password: { type: 'string' },
      nickname: { type: 'string' },
      role: { type: 'string', default: 'user' },
      count: { type: 'string', default: '1' },
      from: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      ...(Object.fromEntries(SEED_SCALE_OPTIONS.map((name) => [name, { type: 'string' }])) as Record<
        (typeof SEED_SCALE_OPTIONS)[number],
        { type: 'string' }
      >),
    },
  });
  if (command === 'media:to-s3') return copyMediaToBucket(values.from, values['dry-run']!);
  if (command === 'seed:scale') return seedScaleCatalogue(values);
  if (command !== 'user:create' && command !== 'invite:create') {
    console.error(USAGE);
    return 2;
  }
  if (command === 'user:create' && (!values.email || !values.username || !values.password)) {
    console.error(`user:create needs --email, --username and --password.\n${USAGE}`);
    return 2;
  }
  if (!(ROLES as readonly string[]).includes(values.role!)) {
    console.error(`Unknown role "${values.role}". Roles: ${ROLES.join(', ')}.`);
    return 2;
  }
  const request: AdminRequest =
    command === 'user:create'
      ? {
          command,
          email: values.email!,
          username: values.username!,
          password: values.password!,
          nickname: values.nickname,
          role: values.role!,
        }
      : { command, count: Number(values.count) || 1 };
  const config = readServerConfig();
  const embedded = !config.databaseUrl && config.dataDir && config.dataDir !== ':memory:' ? config.dataDir : null;
  // A server running on the embedded database holds it: it runs the command for us.
  const answer = embedded ? await askRunningServer(embedded, request) : null;
  if (answer) {
    if (!answer.ok) {
      const detail = answer.issues?.map((i) => `${i.path}: ${i.message}`).join(', ');
      console.error(`${answer.message}${detail ? ` (${detail})` : ''}`);
      return 1;
    }
    for (const line of answer.lines) console.log(line);
    return 0;
  }
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir || undefined });
  try {
    await migrateToLatest(database.db);
    for (const line of await runAdminCommand(createRepositories(database.db), request)) console.log(line);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof DomainError) {
      const detail = error.issues?.map((i) => `${i.path}: ${i.message}`).join(', ');
      console.error(`${translatorFor('en').t(MESSAGE_KEY[error.code])}${detail ? ` (${detail})` : ''}`);
    } else if (error instanceof Error && /in use by process/.test(error.message)) {
      console.error(
        `${error.message}\nThe embedded database admits one process, and the process holding it did not answer on ${ADMIN_SOCKET_NAME} in the data directory (an older server, or DATA_DIR differs): stop the server, run this command, then start the server again.`,
      );
    } else {
      console.error(error instanceof Error ? error.message : error);
    }
    process.exit(1);
  },
);
