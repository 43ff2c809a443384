import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator, type MigrationProvider } from 'kysely/migration';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from './schema.ts';
import { MIGRATIONS } from './migrations/index.ts';
import { pglitePool } from './pglite-pool.ts';
import { acquireDirectoryLock } from './dir-lock.ts';

export type DatabaseKind = 'pglite' | 'postgres';
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

// int8 (bigint ids) and counts arrive as numbers on both backends; ids stay far below 2^53.
const INT8_OID = 20;

/**
 * Opens the database: PostgreSQL when a URL is given, otherwise the embedded PGlite in
 * `dataDir` (memory when no directory is given, for tests).
 */
export async function openDatabase(options: { databaseUrl?: string; dataDir?: string }): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      types: { getTypeParser: ((oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
    const pglite = await PGlite.create(dataDir, { parsers: { [INT8_OID]: Number } });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pglitePool(pglite) }) });
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

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** Applies every pending migration; refuses to start on a failed one. */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableName: 'schema_migrations', migrationLockTableName: 'schema_migrations_lock' });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw new Error(`database migration failed: ${(error as Error).message ?? error}`, { cause: error });
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function pingDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
