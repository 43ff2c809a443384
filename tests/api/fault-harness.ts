/**
 * Fault tests' tools: the server as a real process from the real entry point (`node
 * server/main.ts`), killed by pid; a throwaway PostgreSQL cluster of the test's own (initdb and
 * pg_ctl on a loopback port of the crash range, 4530-4539), never the shared server; members
 * and a video written into the database before the server starts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chownSync, existsSync, readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createServer } from 'node:net';
import { openDatabase, migrateToLatest } from '../../server/db/database.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';
import type { TestServer } from './harness.ts';
import { serverArguments } from '../../server/node-flags.ts';

const ROOT = join(import.meta.dirname, '..', '..');

export interface ServerProcess {
  pid: number;
  baseUrl: string;
  /** Milliseconds from spawn to listening. */
  startMs: number;
  /** Every JSON log line so far. */
  logs: Array<Record<string, any>>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  api: (path: string, init?: RequestInit) => Promise<Response>;
  /** Resolves with the first log line (past or future) for which `match` holds. */
  logLine: (match: (line: Record<string, any>) => boolean) => Promise<Record<string, any>>;
  /** The media-helpers' server shape (they only use baseUrl and api). */
  asTestServer: () => TestServer;
}

/** Starts `node server/main.ts` with the environment given; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, serverArguments(), {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SERVE_SITE: '0',
      DEMO: '0',
      LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      ...env,
    },
  });
  const logs: Array<Record<string, any>> = [];
  const waiters: Array<{
    match: (line: Record<string, any>) => boolean;
    resolve: (line: Record<string, any>) => void;
  }> = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk).slice(-4000)));
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let line: Record<string, any>;
    try {
      line = JSON.parse(text);
    } catch {
      return;
    }
    logs.push(line);
    for (const waiter of [...waiters])
      if (waiter.match(line)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(line);
      }
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const logLine = (match: (line: Record<string, any>) => boolean) => {
    const seen = logs.find(match);
    return seen
      ? Promise.resolve(seen)
      : new Promise<Record<string, any>>((resolve) => waiters.push({ match, resolve }));
  };
  const listening = await Promise.race([
    logLine((line) => line.msg === 'listening'),
    exited.then(({ code }) => Promise.reject(new Error(`the server exited (${code}) before listening: ${stderr}`))),
  ]);
  const baseUrl = String(listening.url).replace(/\/$/, '');
  const api = (path: string, init?: RequestInit) => fetch(`${baseUrl}/api/${path}`, init);
  const processHandle: ServerProcess = {
    pid: child.pid!,
    baseUrl,
    startMs: performance.now() - started,
    logs,
    exited,
    api,
    logLine,
    asTestServer: () => ({ baseUrl, api }) as unknown as TestServer,
  };
  running.add(processHandle);
  void exited.then(() => running.delete(processHandle));
  return processHandle;
}

const running = new Set<ServerProcess>();
/** Kills every server a test left running (a failed test must not leave processes behind). */
export function killLeftoverServers() {
  for (const server of running) process.kill(server.pid, 'SIGKILL');
}

/** SIGKILL by pid; resolves once the process is gone. */
export async function killHard(server: ServerProcess): Promise<void> {
  process.kill(server.pid, 'SIGKILL');
  await server.exited;
}

export interface Seeded {
  cookies: string[];
  uids: number[];
  videoId: number;
}

/**
 * Before the server starts: the schema, `members` members with sessions, and one approved video
 * (without media) to comment on, written with the server's own code.
 */
export async function seedDatabase(
  target: { databaseUrl?: string; dataDir?: string },
  members: number,
): Promise<Seeded> {
  const database = await openDatabase(target);
  try {
    await migrateToLatest(database.db);
    const repositories = createRepositories(database.db);
    const cookies: string[] = [];
    const uids: number[] = [];
    for (let i = 0; i < members; i++) {
      const uid = await insertAccount(repositories, {
        email: `writer${i}@example.com`,
        password: 'crash test password 1',
        username: `writer${i}`,
      });
      cookies.push(`uid=${uid}; token=${await createSession(repositories, uid)}`);
      uids.push(uid);
    }
    const { video_id: videoId } = await database.db
      .insertInto('videos')
      .values({ uploader_uid: uids[0], title: '崩溃测试', status: 'approved', duration_ms: 600_000, search_text: 'x' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    return { cookies, uids, videoId };
  } finally {
    await database.close();
  }
}

/** Runs `work` over the database while no server holds it (PGlite admits one process). */
export async function withDatabase<T>(
  target: { databaseUrl?: string; dataDir?: string },
  work: (db: Awaited<ReturnType<typeof openDatabase>>['db']) => Promise<T>,
): Promise<T> {
  const database = await openDatabase(target);
  try {
    return await work(database.db);
  } finally {
    await database.close();
  }
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
export const sha256OfFile = async (path: string) => sha256(await readFile(path));

export async function scratchDir(name: string): Promise<string> {
  return mkdtemp(join(tmpdir(), `kiraboshi-${name}-`));
}

/** The first of `ports` nothing listens on at 127.0.0.1. */
async function firstFreePort(ports: number[]): Promise<number> {
  for (const port of ports) {
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer()
        .once('error', () => resolve(false))
        .listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`the ports ${ports.join(', ')} are all taken: another fault test run is using them`);
}

/** The PostgreSQL server binaries: Debian's versioned folder first, then PATH. */
function postgresBin(name: 'initdb' | 'pg_ctl'): string | null {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    for (const version of readdirSync(base).sort().reverse()) {
      const candidate = join(base, version, 'bin', name);
      if (existsSync(candidate)) return candidate;
    }
  }
  const found = spawnSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim();
  return found || null;
}

export const canRunOwnPostgres = !!postgresBin('initdb') && !!postgresBin('pg_ctl');

export interface OwnPostgres {
  port: number;
  /** A fresh database on this cluster (UTF-8, as production wants). */
  freshDatabase(): Promise<string>;
  stop(): void;
  start(): void;
  destroy(): Promise<void>;
}

/**
 * A throwaway cluster on 127.0.0.1:`port`, in a temporary folder, run as the postgres user when
 * the tests run as root (initdb refuses root). fsync is off: these tests kill the application,
 * never the machine, so the cluster's own flushing is not what they measure.
 */
export async function startOwnPostgres(preferredPort: number): Promise<OwnPostgres> {
  const dir = await scratchDir('pg');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim();
    chownSync(dir, Number(ids), Number(gid));
  }
  const as = (binary: string, args: string[]) => {
    const [command, commandArgs] = asRoot ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
    const result = spawnSync(command, commandArgs, { encoding: 'utf8', cwd: dir });
    if (result.status !== 0) throw new Error(`${binary} ${args.join(' ')} failed: ${result.stderr || result.stdout}`);
  };
  const data = join(dir, 'data');
  let port = 0;
  const start = () =>
    as(postgresBin('pg_ctl')!, [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
      '-w',
      'start',
    ]);
  const stop = () => as(postgresBin('pg_ctl')!, ['-D', data, '-m', 'fast', '-w', 'stop']);
  try {
    as(postgresBin('initdb')!, [
      '-D',
      data,
      '-A',
      'trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C.UTF-8',
      '--no-sync',
    ]);
    // Each file has its port (4530-4532); a second copy of the suite running at the same time
    // takes the next free one of the range, three apart, rather than failing.
    const candidates = [preferredPort, preferredPort + 3, preferredPort + 6].filter((p) => p <= 4539);
    for (const candidate of candidates) {
      if ((await firstFreePort([candidate]).catch(() => 0)) !== candidate) continue;
      port = candidate;
      try {
        start();
        break;
      } catch {
        port = 0; // taken between the check and the start
      }
    }
    if (!port)
      throw new Error(`the ports ${candidates.join(', ')} are all taken: another fault test run is using them`);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    async freshDatabase() {
      const name = `crash_${randomBytes(5).toString('hex')}`;
      const { default: pg } = await import('pg');
      const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
      await admin.connect();
      await admin.query(
        `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`,
      );
      await admin.end();
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
