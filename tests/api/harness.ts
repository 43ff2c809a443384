import pg from 'pg';
import type { Kysely } from 'kysely';
import { randomBytes } from 'node:crypto';
import { startServer } from '../../server/main.ts';
import { openDatabase, type QueryObserver } from '../../server/db/database.ts';
import type { ConversationEvents } from '../../server/services/conversation-events.ts';

export type Backend = 'pglite' | 'postgres';

/** PGlite always; PostgreSQL too when TEST_DATABASE_URL names a server (CI sets it). */
export const BACKENDS: Backend[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/** A fresh, empty PostgreSQL database on the test server, dropped by the returned function. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL!;
  // TEST_DATABASE_PREFIX: a bench's databases named apart from the tests' (several people share one server).
  const name = `${process.env.TEST_DATABASE_PREFIX ?? 'kiraboshi_test_'}${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // UTF-8 collation so text search behaves as in production (CJK needs a UTF-8 LC_CTYPE).
  await admin.query(
    `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8'`,
  );
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

export interface TestServer {
  baseUrl: string;
  api: (path: string, init?: RequestInit) => Promise<Response>;
  db: Awaited<ReturnType<typeof startServer>>['database']['db'];
  /** The server's caches of its database (server/repositories/caches.ts): announce or read what the server keeps. */
  caches: Awaited<ReturnType<typeof startServer>>['caches'];
  /** The server's one repository set (over `db` and `caches`), as its services, jobs and media server use it. */
  repositories: Awaited<ReturnType<typeof startServer>>['repositories'];
  /** The server's event bus (server/events/bus.ts). */
  bus: Awaited<ReturnType<typeof startServer>>['bus'];
  /** The one-time token the server printed for its first-run page. */
  firstRunToken?: string;
  /** The server's services, for events whose calls are not built yet (tests call the service as the call will). */
  services: Awaited<ReturnType<typeof startServer>>['services'];
  close: () => Promise<void>;
}

/**
 * Starts the real server (same entry as `npm start`) on a random port with a fresh database.
 * `site: true` also serves the built site from dist/ (run `npm run build` first).
 */
export async function startTestServer(
  backend: Backend,
  options: {
    site?: boolean;
    env?: Record<string, string>;
    onQuery?: QueryObserver;
    conversationEvents?: ConversationEvents;
  } = {},
): Promise<TestServer> {
  const pgDb = backend === 'postgres' ? await freshPostgresDatabase() : null;
  const running = await startServer(
    {
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: ':memory:',
      DATABASE_URL: pgDb?.url,
      SERVE_SITE: options.site ? '1' : '0',
      LOG_LEVEL: 'error',
      DEMO: '0',
      // Contract conformance: every answer the API tests receive is checked against its schema.
      API_CHECK_RESPONSES: '1',
      // Two kept connections, not the site's ten: test servers run side by side on one PostgreSQL.
      DATABASE_POOL_KEPT: '2',
      ...options.env,
    },
    { onQuery: options.onQuery, conversationEvents: options.conversationEvents },
  );
  const baseUrl = `http://127.0.0.1:${running.port}`;
  return {
    baseUrl,
    api: (path, init) => fetch(`${baseUrl}/api/${path.replace(/^\//, '')}`, init),
    db: running.database.db,
    caches: running.caches,
    repositories: running.repositories,
    bus: running.bus,
    firstRunToken: running.firstRunToken,
    services: running.services,
    close: async () => {
      await running.close();
      await pgDb?.drop();
    },
  };
}

export { openDatabase };

/** `db` seen through a plugin that counts the statements sent through it (once per result: a subquery's builder is not one). */
export function countingStatements<DB>(db: Kysely<DB>): { db: Kysely<DB>; count: number } {
  const counter = {
    count: 0,
    db: db.withPlugin({
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        counter.count++;
        return result;
      },
    }),
  };
  return counter;
}

/** One JSON call as the site makes it (cookie, language), answering the status and the parsed body. */
export async function jsonCall(
  server: Pick<TestServer, 'api'>,
  path: string,
  options: { method?: string; cookie?: string; locale?: string; body?: unknown } = {},
) {
  const res = await server.api(path, {
    method: options.method ?? 'GET',
    headers: {
      'Content-Type': 'application/json',
      'X-Client-Language': options.locale ?? 'en',
      ...(options.cookie ? { Cookie: options.cookie } : {}),
    },
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}
