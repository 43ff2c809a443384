import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

/**
 * Presents one PGlite instance as a node-postgres style pool for Kysely's PostgresDialect.
 * PGlite is a single connection, so its one client is handed out to one holder at a time: a
 * transaction keeps it until it commits, and concurrent requests queue instead of interleaving.
 */
export function pglitePool(pg: PGlite): PostgresPool {
  let tail: Promise<void> = Promise.resolve();
  let releaseCurrent: (() => void) | undefined;

  const client = {
    async query<R>(sqlText: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
      const result = await pg.query<R>(sqlText, parameters as unknown[]);
      const command = /^\s*(\w+)/.exec(sqlText)?.[1]?.toUpperCase() as PostgresQueryResult<R>['command'];
      return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
    },
    release() {
      const release = releaseCurrent;
      releaseCurrent = undefined;
      release?.();
    },
  } as unknown as PostgresPoolClient;

  return {
    options: { max: 1 },
    async connect(): Promise<PostgresPoolClient> {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const previous = tail;
      tail = previous.then(() => held);
      await previous;
      releaseCurrent = release;
      return client;
    },
    async end() {
      await pg.close();
    },
  };
}
