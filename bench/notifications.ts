/**
 * Notifications on PostgreSQL (issue 27 goals): GET api/notification/list and
 * GET api/notification/unreadCount with 1 000 000 notifications in the table, 10 000 of them the
 * asking member's (a third unread), on the real server as the API tests start it (a fresh
 * database on TEST_DATABASE_URL, created and dropped here; migrations as in production).
 * The other 990 000 belong to 9 900 other members (100 each), interleaved in time with the
 * member's, every kind and tab represented.
 * Measured: REQUESTS HTTP requests each (one keep-alive connection, as a page makes them), after
 * WARMUP: the list's first page, a page 20 deep (its cursor read once before), a tab (likes), and
 * the unread count; wall time per request at the client. Goals: list p99 <= 20 ms, count p99 <= 5 ms.
 * Also the live delivery across two server processes (LISTEN/NOTIFY): a notification stored
 * through process 1 reaches a stream open on process 2; LIVE_ROUNDS times, p50/p99.
 * Usage: node bench/notifications.ts [requests=300]   (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { sql } from 'kysely';

const REQUESTS = Number(process.argv[2]) || 300;
const WARMUP = 30;
const TOTAL = 1_000_000;
const MINE = 10_000;
const OTHERS = 9_900;
const LIVE_ROUNDS = 50;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (x: number) => +x.toFixed(2);
const summary = (xs: number[]) => ({
  p50: round(percentile(xs, 50)),
  p95: round(percentile(xs, 95)),
  p99: round(percentile(xs, 99)),
  max: round(Math.max(...xs)),
});

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const { startTestServer } = await import('../tests/api/harness.ts');
const { member } = await import('../tests/api/media-helpers.ts');
const { startServer } = await import('../server/main.ts');
const { SseClient } = await import('../tests/api/sse-client.ts');
// Statements the server sends per request of each case: a figure the machine's load does not move.
let statements = 0;
const server = await startTestServer('postgres', {
  env: { WORKER: '0', NOTIFICATION_DIGEST_CHECK_MS: '0' },
  onQuery: () => {
    statements++;
  },
});
let second: Awaited<ReturnType<typeof startServer>> | null = null;
try {
  const setupStarted = performance.now();
  const { db } = server;
  const cookie = await member(server, 'reader');
  const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
  const firstOther = Number(
    (
      await sql<{
        uid: number;
      }>`INSERT INTO users (username) SELECT 'other' || g FROM generate_series(1, ${OTHERS}) g RETURNING uid`.execute(
        db,
      )
    ).rows[0].uid,
  );
  const kinds = ['reply', 'comment', 'mention', 'follow', 'like', 'uploadApproved'];
  const categories = ['reply', 'reply', 'mention', 'system', 'like', 'system'];
  // Row g: the member's every 100th row (10 000), else another member's; one a second going back ~11.5 days.
  await sql`INSERT INTO notifications (recipient_uid, kind, category, actor_uids, actor_count, target_type, target_id, detail, is_read, created_at)
    SELECT CASE WHEN g % 100 = 0 THEN ${uid} ELSE ${firstOther} + g % ${OTHERS} END,
      (${sql.val(kinds)}::text[])[1 + g % 6], (${sql.val(categories)}::text[])[1 + g % 6],
      ARRAY[${firstOther} + g % 97, ${firstOther} + g % 89]::bigint[], 2, 'video', g % 5000 + 1,
      jsonb_build_object('title', 'video ' || (g % 5000 + 1), 'excerpt', 'a comment of some length ' || g),
      g % 3 <> 0, now() - g * interval '1 second'
    FROM generate_series(1, ${TOTAL}) g`.execute(db);
  await sql`ANALYZE notifications`.execute(db);
  const setupSeconds = round((performance.now() - setupStarted) / 1000);
  const rows = Number((await sql<{ n: string }>`SELECT count(*) AS n FROM notifications`.execute(db)).rows[0].n);
  const mine = Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM notifications WHERE recipient_uid = ${uid}`.execute(db)).rows[0]
      .n,
  );

  const get = async (path: string) => {
    const started = performance.now();
    const res = await fetch(`${server.baseUrl}/api/${path}`, {
      headers: { Cookie: cookie, 'X-Client-Language': 'en' },
    });
    const body = (await res.json()) as Record<string, unknown>;
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(body)}`);
    return { ms: performance.now() - started, body };
  };
  let cursor = '';
  for (let page = 0; page < 20; page++)
    cursor = String((await get(`notification/list${cursor ? `?cursor=${cursor}` : ''}`)).body.nextCursor);
  const cases: Record<string, string> = {
    'list, first page': 'notification/list',
    'list, page 21': `notification/list?cursor=${cursor}`,
    'list, likes tab': 'notification/list?kind=like',
    'unread count': 'notification/unreadCount',
  };
  const results: Record<string, ReturnType<typeof summary> & { statementsPerRequest: number }> = {};
  for (const [name, path] of Object.entries(cases)) {
    for (let i = 0; i < WARMUP; i++) await get(path);
    const times: number[] = [];
    const statementsBefore = statements;
    for (let i = 0; i < REQUESTS; i++) times.push((await get(path)).ms);
    results[name] = { ...summary(times), statementsPerRequest: round((statements - statementsBefore) / REQUESTS) };
  }
  const plans: Record<string, string> = {};
  for (const [name, query] of Object.entries({
    list: sql`SELECT id FROM notifications WHERE recipient_uid = ${uid} ORDER BY created_at DESC, id DESC LIMIT 21`,
    unread: sql`SELECT count(*) FROM (SELECT id FROM notifications WHERE recipient_uid = ${uid} AND NOT is_read LIMIT 100) u`,
  }))
    plans[name] = (await sql<{ 'QUERY PLAN': string }>`EXPLAIN (ANALYZE, BUFFERS) ${query}`.execute(db)).rows
      .map((r) => r['QUERY PLAN'])
      .join('\n');

  // Live delivery across two processes: a second server process on the same database.
  const databaseUrl = (await sql<{ db: string }>`SELECT current_database() AS db`.execute(db)).rows[0].db;
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${databaseUrl}`;
  second = await startServer({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: ':memory:',
    DATABASE_URL: url.toString(),
    SERVE_SITE: '0',
    LOG_LEVEL: 'error',
    DEMO: '0',
    WORKER: '0',
    NOTIFICATION_DIGEST_CHECK_MS: '0',
  });
  const stream = await SseClient.open(`http://127.0.0.1:${second.port}/api/notification/live`, {
    headers: { Cookie: cookie },
  });
  await stream.until((c) => c.events.length >= 1);
  const live: number[] = [];
  for (let i = 0; i < LIVE_ROUNDS; i++) {
    const before = stream.events.length;
    const started = performance.now();
    await server.services.notifications.notify({
      kind: 'mention',
      recipientUid: uid,
      actorUid: firstOther + i,
      target: { type: 'video', id: 1, title: 'live' },
    });
    await stream.until((c) => c.events.length > before);
    live.push(stream.events[stream.events.length - 1].at - started);
  }
  stream.close();

  const report = {
    date: new Date().toISOString(),
    machine: {
      cpus: cpus().length,
      cpu: cpus()[0]?.model,
      memoryGiB: round(totalmem() / 1024 ** 3),
      platform: `${platform()} ${release()}`,
      loadAtStart,
      loadAtEnd: loadavg().map((l) => +l.toFixed(2)),
    },
    data: { rows, mine, setupSeconds },
    requests: REQUESTS,
    results,
    goals: { listP99Ms: 20, unreadP99Ms: 5, liveP99Ms: 1000 },
    met: {
      list: ['list, first page', 'list, page 21', 'list, likes tab'].every((k) => results[k].p99 <= 20),
      unread: results['unread count'].p99 <= 5,
      live: percentile(live, 99) < 1000,
    },
    liveAcrossTwoProcesses: { rounds: LIVE_ROUNDS, ...summary(live) },
    plans,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/notifications.json', `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify({ ...report, plans: undefined }, null, 2));
} finally {
  await second?.close();
  await server.close();
}
