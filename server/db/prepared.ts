/**
 * Statements prepared once per connection (docs/decisions/0035). A statement the server runs
 * for nearly every request with the same text (the session lookup, a like) is marked with
 * `PREPARED` by its repository; on PostgreSQL it is then sent as a named statement, which each
 * connection parses once and, after a few runs, plans once: a like's statement cost its backend
 * about 40 % less CPU than parsed, analysed and planned on every run. Only marked statements are
 * named: a generic plan suits a lookup by key, but not a search whose best plan depends on its
 * terms, and statements whose text varies (lists of ids) would fill every backend with plans.
 * PGlite reads the mark as the comment it is.
 */
import { sql, type PostgresPool } from 'kysely';
import { createHash } from 'node:crypto';
import type pg from 'pg';

const MARK = '/* prepared */';

/**
 * Put at the front of a statement (`sql\`${PREPARED} WITH …\`` or `.modifyFront(PREPARED)`) to
 * have it prepared once per connection. Its text must not vary between runs (values are parameters).
 */
export const PREPARED = sql.raw(MARK);

/** Names per statement text: the same on every connection, so each connection prepares it once. */
const names = new Map<string, string>();
const nameOf = (text: string) => {
  let name = names.get(text);
  if (!name) names.set(text, (name = `k_${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
  return name;
};

const wrapped = new WeakSet<pg.PoolClient>();

/** The pool as Kysely takes it, its clients sending marked statements as named (prepared) ones. */
export function preparingPool(pool: pg.Pool): PostgresPool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const connectPreparing = async () => {
    const client = await connect();
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((text: unknown, ...rest: unknown[]) =>
      typeof text === 'string' && text.includes(MARK) && Array.isArray(rest[0]) && rest.length === 1
        ? query({ name: nameOf(text), text, values: rest[0] })
        : query(text, ...rest)) as typeof client.query;
    return client;
  };
  // Kysely reads the pool's options and Client (for a cancelling connection): the pool's own.
  return {
    Client: (pool as pg.Pool & { Client?: PostgresPool['Client'] }).Client,
    options: pool.options,
    connect: connectPreparing,
    end: () => pool.end(),
  };
}
