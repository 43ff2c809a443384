/**
 * The server's PostgreSQL pool is open once the server has started (DATABASE_POOL_KEPT
 * connections, docs/decisions/0030) and those connections stay open through a quiet spell longer
 * than the pool's idle timeout (10 s), so a burst of requests after it opens none.
 * PostgreSQL only: PGlite is one connection in the process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { POOL_APPLICATION_NAME } from '../../server/db/database.ts';
import { startTestServer, type TestServer } from './harness.ts';

describe.skipIf(!process.env.TEST_DATABASE_URL)('the PostgreSQL pool of a started server', () => {
  let server: TestServer;
  let admin: pg.Client;
  let database = '';
  /** The pool's connections to the server's database: when each backend started. */
  const poolConnections = async () =>
    (
      await admin.query<{ pid: number; started: Date }>(
        'SELECT pid, backend_start AS started FROM pg_stat_activity WHERE datname = $1 AND application_name = $2 ORDER BY pid',
        [database, POOL_APPLICATION_NAME],
      )
    ).rows;

  beforeAll(async () => {
    server = await startTestServer('postgres', { env: { DATABASE_POOL_KEPT: '4' } });
    database = (
      await server.db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('name')).executeTakeFirstOrThrow()
    ).name;
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await server?.close();
  });

  it('has its kept connections open after start, before any request', async () => {
    // The statement above that named the database ran on one of them, so none was opened by a request.
    expect((await poolConnections()).length).toBeGreaterThanOrEqual(4);
  });

  it('keeps them through a quiet spell longer than the idle timeout, and a burst after it opens none', async () => {
    // A burst (each health check pings the database) opens more of the pool (10); after 10 s
    // idle, those beyond the kept four close.
    await Promise.all(Array.from({ length: 30 }, () => server.api('health')));
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    const afterQuiet = await poolConnections();
    expect(afterQuiet.length).toBe(4);
    // Another burst of four at once is served by those four: no backend started since.
    const answers = await Promise.all(Array.from({ length: 4 }, () => server.api('health')));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const afterBurst = await poolConnections();
    expect(afterBurst.filter((c) => !afterQuiet.some((kept) => kept.pid === c.pid))).toEqual([]);
  }, 30_000);
});
