/**
 * PostgreSQL's JIT compilation on the site's own read queries (docs/decisions/0021): the
 * repositories' calls for hot paths, over a database of 100 000 videos from the scale seeder,
 * through two connection pools to it, one as PostgreSQL comes (jit on, the site's setting before
 * 0021) and one as the site now connects (`-c jit=off`, server/db/database.ts). Each call runs on
 * both, alternating which goes first, so both see the same machine.
 * The database is kira_jit_<videos> on TEST_DATABASE_URL's server, seeded when missing and kept.
 * Usage: node bench/postgres-jit.ts [rounds=40] [videos=100000]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../server/db/schema.ts';
import { abbaOrder, median } from './stats.ts';
import { runFacts } from './run-facts.ts';

const ROUNDS = Number(process.argv[2]) || 40;
const VIDEOS = Number(process.argv[3]) || 100_000;
const base = new URL(process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const name = `kira_jit_${VIDEOS}`;

const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
const { seedScale } = await import('../server/demo/scale-seed.ts');
const { createRepositories } = await import('../server/repositories/index.ts');

const admin = new pg.Client({ connectionString: base.toString() });
await admin.connect();
const exists = (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1;
if (!exists) await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;

const site = await openDatabase({ databaseUrl: url.toString() });
if (!exists) {
  await migrateToLatest(site.db);
  console.log(`seeding ${name}…`);
  const report = await seedScale(
    site.db,
    { databaseUrl: url.toString() },
    {
      videos: VIDEOS,
      users: VIDEOS / 20,
      danmakuPerVideo: 5,
      commentsPerVideo: 2,
      followsPerUser: 20,
      historyPerUser: 20,
      seed: 30,
    },
  );
  console.log(`  ${report.rows} rows in ${report.seconds} s`);
  await sql`VACUUM ANALYZE`.execute(site.db);
}
// The baseline: the same database through a pool that leaves PostgreSQL's JIT as it comes.
const jitPool = new pg.Pool({ connectionString: url.toString(), max: 10 });
const withJit = new Kysely<Database>({ dialect: new PostgresDialect({ pool: jitPool }) });
const sides = { jitOn: createRepositories(withJit), jitOff: createRepositories(site.db) };

const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(site.db)).rows[0]!;
const approved = sql`JOIN videos v ON v.video_id = x.video_id AND v.status = 'approved'`;
const busiestComments = (
  await one(
    sql<{
      id: number;
    }>`SELECT x.video_id AS id FROM comments x ${approved} WHERE x.parent_id IS NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  )
).id;
const popular = (
  await one(
    sql<{
      id: number;
    }>`SELECT x.video_id AS id FROM watch_history x ${approved} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  )
).id;
const reader = (
  await one(sql<{ uid: number }>`SELECT follower_uid AS uid FROM follows GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`)
).uid;

type Repositories = (typeof sides)['jitOn'];
const paths: Record<string, (r: Repositories) => Promise<unknown>> = {
  home: (r) => r.videos.thumbPage({ statuses: ['approved'] }, { page: 1, pageSize: 30 }),
  category: (r) => r.videos.thumbPage({ statuses: ['approved'], category: 'anime' }, { page: 1, pageSize: 30 }),
  'comments page 1 (busiest video)': (r) =>
    Promise.all([
      r.comments.countOf({ type: 'video', id: busiestComments }, null),
      r.comments.headsPage({ type: 'video', id: busiestComments }, null, { limit: 20, offset: 0, sort: 'hot' }),
    ]),
  related: (r) => r.videos.related(popular, null, 12),
  feed: (r) => r.videos.feedPage(reader, null, 20),
  'search guitar': (r) =>
    r.videos.thumbPage({ statuses: ['approved'], words: ['guitar'] }, { page: 1, pageSize: 30 }, 'relevance'),
  'search 星空': (r) =>
    r.videos.thumbPage({ statuses: ['approved'], words: ['星空'] }, { page: 1, pageSize: 30 }, 'relevance'),
};

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const times: Record<string, { jitOn: number[]; jitOff: number[] }> = {};
for (const [label, call] of Object.entries(paths)) {
  times[label] = { jitOn: [], jitOff: [] };
  for (const side of ['jitOn', 'jitOff'] as const) await call(sides[side]); // warm both pools' plans and pages
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of abbaOrder(i, 'jitOn' as const, 'jitOff' as const)) {
      const started = performance.now();
      await call(sides[side]);
      times[label][side].push(performance.now() - started);
    }
  }
}
const p = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(q * xs.length) - 1)]!;
const rows = Object.entries(times).map(([label, { jitOn, jitOff }]) => ({
  path: label,
  jitOn: { p50: +median(jitOn).toFixed(2), p99: +p(jitOn, 0.99).toFixed(2) },
  jitOff: { p50: +median(jitOff).toFixed(2), p99: +p(jitOff, 0.99).toFixed(2) },
  ratioP50: +(median(jitOff) / median(jitOn)).toFixed(3),
}));
for (const r of rows)
  console.log(
    `${r.path.padEnd(34)} jit on p50 ${r.jitOn.p50} ms p99 ${r.jitOn.p99} | off p50 ${r.jitOff.p50} ms p99 ${r.jitOff.p99} | off/on ${r.ratioP50}`,
  );
const result = {
  name: 'postgres-jit',
  date: new Date().toISOString(),
  ...runFacts(loadAtStart),
  setup: `${name}: the scale seeder's ${VIDEOS} videos (danmaku 5, comments 2 a video; follows and history 20 a member), VACUUM ANALYZE; the repositories' calls, ${ROUNDS} rounds a path, jit on and off alternating (ABBA), after one warm call each`,
  rows,
};
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(join('bench', 'results', 'postgres-jit.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log('written bench/results/postgres-jit.json');
await withJit.destroy();
await site.close();
