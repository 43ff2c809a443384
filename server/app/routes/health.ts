import { Hono } from 'hono';
import type { AppEnv } from '../create-app.ts';
import type { HealthResponse } from '../../../src/lib/api/contract.ts';
import { pingDatabase } from '../../db/database.ts';

const started = Date.now();

export function healthRoutes() {
  return new Hono<AppEnv>().get('/health', async (c) => {
    const { db, databaseKind, buildId } = c.get('deps');
    const databaseOk = await pingDatabase(db);
    const body: HealthResponse = {
      success: true,
      status: databaseOk ? 'ok' : 'degraded',
      database: databaseKind,
      databaseOk,
      buildId,
      uptimeSeconds: Math.round((Date.now() - started) / 1000),
    };
    c.header('Cache-Control', 'no-store');
    return c.json(body, databaseOk ? 200 : 503);
  });
}
