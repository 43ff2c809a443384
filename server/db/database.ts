import { Kysely, PostgresDialect, sql, type CompiledQuery, type LogEvent } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from './schema.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { pglitePool } from './pglite-pool.ts';
import { acquireDirectoryLock } from './dir-lock.ts';
import { preparingPool } from './prepared.ts';

export type DatabaseKind = 'pglite' | 'postgres';
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

// int8 (bigint ids) and counts arrive as numbers on both backends; ids stay far below 2^53.
const INT8_OID = 20;

/**
 * Sees every statement the site runs, as sent, once it has returned, with its time from being sent
 * on its connection to its answer (the query-plan tests EXPLAIN what the read paths really ask; the
 * likes bench times the hot statements second by second).
 */
export type QueryObserver = (query: CompiledQuery, durationMs: number) => void;

const observe = (onQuery?: QueryObserver) =>
  onQuery
    ? {
        log: (event: LogEvent) => {
          if (event.level === 'query') onQuery(event.query, event.queryDurationMillis);
        },
      }
    : {};

/** Connections to PostgreSQL one process's pool may hold. */
export const POOL_SIZE = 10;

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite in
 * `dataDir` (memory when no directory is given, for tests). `keptConnections` (PostgreSQL, at
 * most POOL_SIZE, default none) are opened before this answers and never closed for being idle:
 * a burst after a quiet spell finds them open instead of opening them while requests wait.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  onQuery?: QueryObserver;
  keptConnections?: number;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const kept = Math.min(POOL_SIZE, Math.max(0, Math.floor(options.keptConnections ?? 0)));
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: POOL_SIZE,
      // Idle connections beyond these close after 10 s (pg's default); these stay (docs/decisions/0030).
      min: kept,
      application_name: POOL_APPLICATION_NAME,
      // While the server is away a request fails within seconds (503) instead of hanging; the
      // pool opens new connections by itself once it is back.
      connectionTimeoutMillis: 5_000,
      // No JIT compilation: the planner's cost guesses for a page's queries (a comment page's
      // lateral probe, a search's scoring) pass jit_above_cost, and compiling then took 17-20 ms of
      // a 30 ms query, every time (docs/decisions/0021-postgres-jit-off.md).
      options: '-c jit=off',
      types: {
        getTypeParser: ((oid: number, format?: string) =>
          oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // A connection the server drops (a restart, or a forced DROP DATABASE while a pooled client is
    // still closing) must not take the process down: the pool replaces it on the next query.
    const ignoreDroppedConnection = () => {};
    pool.on('error', ignoreDroppedConnection);
    pool.on('connect', (client) => client.on('error', ignoreDroppedConnection));
    await openConnections(pool, kept);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: preparingPool(pool) }),
      ...observe(options.onQuery),
    });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  let unlock = async () => {};
  let dataDir: string | undefined;
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    dataDir = join(options.dataDir, 'pgdata');
    unlock = await acquireDirectoryLock(join(options.dataDir, 'pgdata.lock'));
  }
  try {
    const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
    const pglite = await PGlite.create(dataDir, { parsers: { [INT8_OID]: Number }, extensions: { pg_trgm } });
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: pglitePool(pglite) }),
      ...observe(options.onQuery),
    });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        await db.destroy();
        await unlock();
      },
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** How the pool's connections name themselves in pg_stat_activity (the bus's are 'kiraboshi-events'). */
export const POOL_APPLICATION_NAME = 'kiraboshi';

/**
 * Opens `count` connections at once and hands them back to the pool, which keeps them (its `min`).
 * Opened under a burst instead, each costs a backend's start while requests wait: 0.5-1.3 s each
 * for 8 at once on the loaded 2-core bench machine, 5-50 ms one at a time.
 */
async function openConnections(pool: pg.Pool, count: number): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: count }, () => pool.connect()));
  for (const result of opened) if (result.status === 'fulfilled') result.value.release();
  const failed = opened.find((result) => result.status === 'rejected');
  if (failed) {
    await pool.end().catch(() => {});
    throw failed.reason;
  }
}

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; refuses to start on a failed one. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`database migration failed: ${(error as Error).message ?? error}`, { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Keyword search relies on pg_trgm, whose trigrams keep only the characters the database's
 * LC_CTYPE calls letters: under a non-UTF-8 ctype every Chinese or Japanese word silently
 * vanishes from the index. Refuse to start on such a database instead of never matching.
 */
export async function assertCjkSearchWorks(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ trigrams: string[]; ctype: string }>`
    SELECT show_trgm('日本語') AS trigrams, (SELECT datctype FROM pg_database WHERE datname = current_database()) AS ctype`.execute(
    db,
  );
  const { trigrams, ctype } = rows[0];
  if (!trigrams?.length) {
    throw new Error(
      `the database's LC_CTYPE is ${ctype}, which is not a UTF-8 locale: search would never match Chinese or Japanese. ` +
        "Create the database with a UTF-8 locale, e.g. CREATE DATABASE kiraboshi LC_CTYPE 'C.UTF-8' LC_COLLATE 'C.UTF-8' TEMPLATE template0.",
    );
  }
}

export async function pingDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
