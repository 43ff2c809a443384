/**
 * DIAGNOSTIC: what the backends of some databases are doing, sampled from pg_stat_activity every
 * `intervalMs` (50) for `seconds`, printed per wall-clock second: the mean number of backends
 * active, and each wait event's (or "CPU" when active with none) mean count per sample. Run beside
 * a bench from another shell, so the sampling costs the bench's server thread nothing.
 * Usage: TEST_DATABASE_URL=… node bench/pg-waits.ts [databasePrefix=lk_] [seconds=30] [intervalMs=50]
 * (SIGTERM ends the sampling early and prints what it has.)
 */
import pg from 'pg';

const PREFIX = process.argv[2] ?? 'lk_';
const SECONDS = Number(process.argv[3]) || 30;
const INTERVAL = Number(process.argv[4]) || 50;
const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
await client.connect();
const seconds = new Map<number, { samples: number; active: number; waits: Map<string, number> }>();
let end = Date.now() + SECONDS * 1000;
process.on('SIGTERM', () => {
  end = 0;
});
while (Date.now() < end) {
  const t = Date.now();
  const { rows } = await client.query<{ state: string | null; wait: string | null; query: string }>(
    `SELECT state, wait_event_type || '/' || wait_event AS wait,
       CASE WHEN query LIKE '%INSERT INTO media_likes%' THEN 'like' WHEN query LIKE '%JOIN sessions%' THEN 'session' ELSE 'other' END AS query
     FROM pg_stat_activity
     WHERE datname LIKE $1 AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    [`${PREFIX.replace(/_/g, '\\_')}%`],
  );
  const second = Math.floor(t / 1000);
  let s = seconds.get(second);
  if (!s) seconds.set(second, (s = { samples: 0, active: 0, waits: new Map() }));
  s.samples++;
  for (const row of rows) {
    if (row.state !== 'active') continue;
    s.active++;
    const what = `${row.wait ?? 'CPU'} ${row.query}`;
    s.waits.set(what, (s.waits.get(what) ?? 0) + 1);
  }
  await new Promise((r) => setTimeout(r, Math.max(0, INTERVAL - (Date.now() - t))));
}
await client.end();
for (const [second, s] of seconds) {
  if (!s.active) continue;
  const waits = [...s.waits]
    .sort((a, b) => b[1] - a[1])
    .map(([what, n]) => `${what} ${(n / s.samples).toFixed(2)}`)
    .join(', ');
  console.log(
    `${new Date(second * 1000).toISOString().slice(11, 19)} ${s.samples} samples, active ${(s.active / s.samples).toFixed(2)}: ${waits}`,
  );
}
