/** Two server processes of one site for a describe block (kept out of harness.ts, which the benches import outside vitest). */
import { afterAll, beforeAll } from 'vitest';
import { startServer } from '../../server/main.ts';
import { freshPostgresDatabase, type TestServer } from './harness.ts';

type Running = Awaited<ReturnType<typeof startServer>>;
/**
 * Two processes of one site for this describe block: one fresh PostgreSQL database, the bus over
 * LISTEN/NOTIFY between them (what one process caches, the other's change must make it forget).
 * The array is filled before the block's tests run; `api` calls one of them.
 */
export function useTwoProcesses(): { servers: Running[]; api: (running: Running) => Pick<TestServer, 'api'> } {
  const servers: Running[] = [];
  let drop = async () => {};
  beforeAll(async () => {
    const database = await freshPostgresDatabase();
    drop = database.drop;
    for (let i = 0; i < 2; i++) {
      servers.push(
        await startServer({
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: database.url,
          SERVE_SITE: '0',
          LOG_LEVEL: 'error',
          DEMO: '0',
          WORKER: '0',
          NOTIFICATION_DIGEST_CHECK_MS: '0',
          DATABASE_POOL_KEPT: '2',
        }),
      );
    }
  }, 180_000);
  afterAll(async () => {
    for (const running of servers) await running.close();
    await drop();
  });
  return {
    servers,
    api: (running) => ({ api: (path, init) => fetch(`http://127.0.0.1:${running.port}/api/${path}`, init) }),
  };
}
