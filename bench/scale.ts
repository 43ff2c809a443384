/**
 * Every read path at size (issue 30): the real server (node server/main.ts, WORKER=0,
 * SERVE_SITE=0) over a PostgreSQL database filled by the scale seeder (server/demo/scale-seed.ts)
 * at each size, and p50/p99 of sequential HTTP requests (one connection, as one visitor) per
 * path, then the growth of each from the smallest size to the largest. Sizes: videos N, members
 * N/10, danmaku 20 a video on average, comments 5, follows 20 a member, history 100 a member
 * (so 100 000 videos come with 1 000 000 history rows: the related list's goal of issue 28,
 * p99 <= 30 ms, is judged there, on the repository call and on HTTP). Also EXPLAIN (ANALYZE,
 * BUFFERS) of the related list's SQL at the largest size. The sitemaps are Astro pages (not served
 * with SERVE_SITE=0): their repository calls are timed in the process instead, like the related list's.
 * Databases are named kira_scale_<videos> on TEST_DATABASE_URL's server (SCALE_DB_PREFIX=<name>
 * replaces kira_scale_, so benches run by different people on one server keep apart); with SCALE_REUSE=1 one
 * already seeded is used as it is, and SCALE_KEEP=1 keeps them (else they are dropped). SCALE_DB=<name>
 * names the one database of a single size outright (one seeded by `npm run cli -- seed:scale`).
 * SCALE_ONLY=<text>[,<text>…] measures only the paths whose label contains one of them; SCALE_RESULT=<file> writes
 * bench/results/<file> instead of scale.json.
 * SCALE_LANDMARKS=<file> keeps what the paths ask for (the busiest videos, the sample of videos) in
 * that file on the first run and reads it on the next ones (side-by-side runs on one database).
 * SCALE_HOT_THREADS=<n> tops the video with the most comments up to n top-level threads after a
 * fresh seed (the 1 M seed's busiest video had 17 541; smaller seeds have fewer), the same rows
 * whichever code runs, so comment pages are measured at that size on a 10 k or 100 k database.
 * The reader (1000 follows) is given block lists (an uploader hidden, a commenter blocked, a tag
 * blocked) the first time a database is used, for the member paths.
 * The web process is started as `npm run serve` starts it (server/node-flags.ts); for a side-by-side
 * run, SCALE_SERVER_ROOT=<checkout> starts another checkout's server and SCALE_NODE_FLAGS=<flags>
 * (empty: none) replaces the flags, while this file measures both the same way.
 * Usage: node bench/scale.ts [sizes=10000,100000] [requests=100, or SCALE_REQUESTS] [port=4512]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Database } from '../server/db/schema.ts';
import { serverArguments } from '../server/node-flags.ts';

const SIZES = (process.argv[2] ?? '10000,100000').split(',').map(Number);
/** Requests per path (after the warm-up): the argument, else SCALE_REQUESTS. At 100 the p99 is the second slowest; 1000 makes it the tenth. */
const REQUESTS = Number(process.argv[3]) || Number(process.env.SCALE_REQUESTS) || 100;
const PORT = Number(process.argv[4]) || 4512;
const WARMUP = 5;
/** A path stops after REQUESTS requests or this many seconds of them, whichever comes first (slow searches at size). */
const PATH_BUDGET_S = Number(process.env.SCALE_PATH_SECONDS) || 20;
const RELATED_GOAL_P99_MS = 30;
const chosen = (label: string) => (process.env.SCALE_ONLY ?? '').split(',').some((part) => label.includes(part));
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
const { seedScale } = await import('../server/demo/scale-seed.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { createVideosRepository } = await import('../server/repositories/videos.repository.ts');
const { createRepositoryCaches } = await import('../server/repositories/caches.ts');
const { SITEMAP_VIDEOS_PER_FILE } = await import('../src/lib/navigation/sitemap.ts');
const { hashToken, SESSION_COOKIE_TOKEN, SESSION_COOKIE_UID } = await import('../server/services/sessions.ts');
const { danmakuPoolCap } = await import('../server/services/danmaku.ts');

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (x: number) => +x.toFixed(2);
const summary = (xs: number[]) => ({
  n: xs.length,
  p50: round(percentile(xs, 50)),
  p90: round(percentile(xs, 90)),
  p99: round(percentile(xs, 99)),
  max: round(Math.max(...xs)),
  /** The five slowest requests, `ms@index` in the order sent: whether the slow ones are the first pass (cold pages) or come at intervals (a kept value's time). */
  slowest: xs
    .map((ms, i) => [ms, i] as const)
    .sort((a, b) => b[0] - a[0])
    .slice(0, 5)
    .map(([ms, i]) => `${round(ms)}@${i}`),
});
type Summary = ReturnType<typeof summary>;

function urlOf(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}
async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * One timed GET of the API on a kept connection, as a browser asks it (`Accept-Encoding: br,
 * gzip`): the time until the last byte, the body read but not decoded. node:http rather than
 * fetch: fetch cost this process about 2 ms a request and its own pauses (p99 17.9 against 12.4 ms
 * for the same server), which are the client's, not the server's.
 */
const keptConnection = new Agent({ keepAlive: true, maxSockets: 1 });
function timedGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ ms: number; status: number; etag: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent: keptConnection, headers: { 'Accept-Encoding': 'br, gzip', ...headers } }, (res) => {
      res.on('data', () => {});
      res.on('end', () =>
        resolve({ ms: performance.now() - started, status: res.statusCode ?? 0, etag: String(res.headers.etag ?? '') }),
      );
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The web process, as scale-read.ts starts it; resolves once it answers. */
async function startWeb(databaseUrl: string, root: string): Promise<ChildProcess> {
  const flags = process.env.SCALE_NODE_FLAGS;
  const args = flags === undefined ? serverArguments() : [...flags.split(/\s+/).filter(Boolean), 'server/main.ts'];
  const child = spawn(process.execPath, args, {
    cwd: process.env.SCALE_SERVER_ROOT ?? process.cwd(),
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: databaseUrl,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      WORKER: '0',
      SERVE_SITE: '0',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      DATA_DIR: root,
      MEDIA_DIR: join(root, 'media'),
      UPLOAD_DIR: join(root, 'uploads'),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}`);
    if (
      await fetch(`http://127.0.0.1:${PORT}/api/video/home`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  child.kill('SIGTERM');
  throw new Error(`the server did not answer on ${PORT}`);
}

/** What the paths ask for, found in the data (so a reused database needs no seed report). */
async function landmarksOf(db: Kysely<Database>) {
  const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(db)).rows[0];
  const reader = await one(
    sql<{
      uid: number;
      n: number;
    }>`SELECT follower_uid AS uid, count(*)::int AS n FROM follows GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
  );
  const uploader = await one(sql<{
    uid: number;
    n: number;
    name: string;
  }>`SELECT v.uploader_uid AS uid, count(*)::int AS n, min(u.username) AS name
    FROM videos v JOIN users u ON u.uid = v.uploader_uid GROUP BY 1 ORDER BY 2 DESC LIMIT 1`);
  // The search words of a tag: the name of the tag most videos carry.
  const tag = await one(
    sql<{
      name: string;
    }>`SELECT n.name_lower AS name FROM tag_names n JOIN video_tags t ON t.tag_id = n.tag_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
  );
  const danmaku = await one(sql<{
    id: number;
    n: number;
  }>`SELECT d.video_id AS id, count(*)::int AS n FROM danmaku d JOIN videos v ON v.video_id = d.video_id AND v.status = 'approved'
    GROUP BY 1 ORDER BY 2 DESC LIMIT 1`);
  // The busiest video whose pool a send would keep: at most danmakuPoolCap of its length.
  const busiest = (
    await sql<{
      id: number;
      n: number;
      ms: number;
    }>`SELECT d.video_id AS id, count(*)::int AS n, v.duration_ms AS ms FROM danmaku d
    JOIN videos v ON v.video_id = d.video_id AND v.status = 'approved' GROUP BY 1, 3 ORDER BY 2 DESC LIMIT 500`.execute(
      db,
    )
  ).rows;
  const fullPool = busiest.find((v) => v.n <= danmakuPoolCap(v.ms / 1000)) ?? busiest[busiest.length - 1];
  const comments = await one(sql<{
    id: number;
    n: number;
    top: number;
  }>`SELECT c.video_id AS id, count(*)::int AS n, count(*) FILTER (WHERE c.parent_id IS NULL)::int AS top
    FROM comments c JOIN videos v ON v.video_id = c.video_id AND v.status = 'approved' GROUP BY 1 ORDER BY 2 DESC LIMIT 1`);
  // Videos a visitor opens: 50 of the most watched and 50 at random (the long tail). The related
  // list is asked for the first: the most watchers, so its co-viewing source has the most to read.
  const popular = (
    await sql<{
      id: number;
    }>`SELECT h.video_id AS id FROM watch_history h JOIN videos v ON v.video_id = h.video_id AND v.status = 'approved'
    GROUP BY 1 ORDER BY count(*) DESC LIMIT 50`.execute(db)
  ).rows.map((r) => r.id);
  const tail = (
    await sql<{
      id: number;
    }>`SELECT video_id AS id FROM videos TABLESAMPLE SYSTEM (5) WHERE status = 'approved' LIMIT 50`.execute(db)
  ).rows.map((r) => r.id);
  const counts = await one(sql<
    Record<string, number>
  >`SELECT (SELECT count(*) FROM videos)::int AS videos, (SELECT count(*) FROM users)::int AS users,
    (SELECT count(*) FROM danmaku)::int AS danmaku, (SELECT count(*) FROM comments)::int AS comments, (SELECT count(*) FROM follows)::int AS follows,
    (SELECT count(*) FROM watch_history)::int AS history, (SELECT count(*) FROM collection_videos)::int AS collection_items`);
  return {
    reader,
    uploader,
    tag: tag.name,
    danmaku,
    fullPool: { id: fullPool.id, n: fullPool.n, seconds: fullPool.ms / 1000 },
    comments,
    videoIds: [...popular, ...tail],
    popular,
    counts,
  };
}

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const sizes: Record<string, unknown> = {};
const perPath: Record<string, Record<number, Summary>> = {};
let relatedCheck: Record<string, unknown> = {};
for (const videos of SIZES) {
  const name = process.env.SCALE_DB ?? `${process.env.SCALE_DB_PREFIX ?? 'kira_scale_'}${videos}`;
  const databaseUrl = urlOf(name);
  const exists = await admin(
    async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1,
  );
  const reuse = exists && process.env.SCALE_REUSE === '1';
  if (exists && !reuse) await admin((c) => c.query(`DROP DATABASE ${name} WITH (FORCE)`));
  if (!reuse) await admin((c) => c.query(`CREATE DATABASE ${name}`));
  const opened = await openDatabase({ databaseUrl });
  const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-scale-'));
  let server: ChildProcess | null = null;
  try {
    await migrateToLatest(opened.db);
    let seed: unknown = 'reused';
    if (!reuse) {
      const options = {
        videos,
        users: Math.max(2, videos / 10),
        danmakuPerVideo: 20,
        commentsPerVideo: 5,
        followsPerUser: 20,
        historyPerUser: 100,
      };
      console.log(`seeding ${name}: ${JSON.stringify(options)} (load ${loadavg()[0].toFixed(1)})`);
      const report = await seedScale(opened.db, { databaseUrl }, options, (line) => console.log(`  ${line}`));
      seed = { options, ...report, loadAverageAfter: loadavg().map((l) => +l.toFixed(2)) };
      console.log(`  ${report.rows} rows in ${report.seconds} s: ${report.rowsPerSecond} rows/s`);
    }
    const hotThreads = Number(process.env.SCALE_HOT_THREADS) || 0;
    if (!reuse && hotThreads) {
      const busiest = (await landmarksOf(opened.db)).comments;
      const more = Math.max(0, hotThreads - busiest.top);
      // Plain top-level comments in SQL, so both sides' databases get the same rows (scores spread, dates older than the seed's).
      await sql`INSERT INTO comments (video_id, target_type, floor, uid, text, upvote_count, created_at)
        SELECT ${busiest.id}, 'video', v.comment_floor + g, (SELECT min(uid) FROM users) + g % 997, '<p>top-up ' || g || '</p>',
          (g * 7919) % 500, now() - g * interval '1 minute'
        FROM videos v, generate_series(1, ${more}::int) g WHERE v.video_id = ${busiest.id}`.execute(opened.db);
      await sql`UPDATE videos SET comment_floor = (SELECT max(floor) FROM comments WHERE video_id = ${busiest.id} AND target_type = 'video')
        WHERE video_id = ${busiest.id}`.execute(opened.db);
      await sql`VACUUM ANALYZE comments`.execute(opened.db);
      console.log(`  ${more} threads added to video ${busiest.id} (${busiest.top} before)`);
    }
    // SCALE_LANDMARKS=<file> keeps them: counting 100 M danmaku per video takes minutes, and A/B runs then share the same sample of videos.
    const marksFile = process.env.SCALE_LANDMARKS;
    const marks: Awaited<ReturnType<typeof landmarksOf>> =
      marksFile && existsSync(marksFile) ? JSON.parse(readFileSync(marksFile, 'utf8')) : await landmarksOf(opened.db);
    if (marksFile && !existsSync(marksFile)) writeFileSync(marksFile, JSON.stringify(marks));
    // A session for the reader (1000 follows), as a sign-in would leave.
    const token = randomBytes(32).toString('base64url');
    await createRepositories(opened.db).sessions.insert({
      token_hash: hashToken(token),
      uid: marks.reader.uid,
      expires_at: new Date(Date.now() + 86_400_000),
    });
    const cookie = `${SESSION_COOKIE_UID}=${marks.reader.uid}; ${SESSION_COOKIE_TOKEN}=${token}`;
    const deepPage = Math.max(1, Math.min(500, Math.floor(marks.comments.top / 20)));
    // The edge of the page before the deep one, newest first, as the list answers it (code that
    // knows no cursor ignores it and serves the numbered page).
    const deepAfter = (
      await sql<{
        floor: number;
      }>`SELECT floor FROM comments WHERE video_id = ${marks.comments.id} AND parent_id IS NULL AND NOT pinned
        ORDER BY floor DESC OFFSET ${Math.max(0, (deepPage - 1) * 20 - 1)} LIMIT 1`.execute(opened.db)
    ).rows[0]?.floor;
    // The reader's block lists, once per database, the same on either side.
    const blocks = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM block_entries WHERE uid = ${marks.reader.uid}`.execute(opened.db);
    if (!blocks.rows[0]!.n) {
      await sql`INSERT INTO block_entries (uid, type, value, target_uid, tag_id)
        SELECT ${marks.reader.uid}, 'hide', uploader_uid::text, uploader_uid, NULL FROM videos
          WHERE uploader_uid <> ${marks.uploader.uid} GROUP BY uploader_uid ORDER BY count(*) DESC LIMIT 1`.execute(
        opened.db,
      );
      await sql`INSERT INTO block_entries (uid, type, value, target_uid, tag_id)
        SELECT ${marks.reader.uid}, 'block', uid::text, uid, NULL FROM comments
          WHERE video_id = ${marks.comments.id} AND parent_id IS NULL AND uid <> ${marks.reader.uid} GROUP BY uid ORDER BY count(*) DESC LIMIT 1`.execute(
        opened.db,
      );
      await sql`INSERT INTO block_entries (uid, type, value, target_uid, tag_id)
        SELECT ${marks.reader.uid}, 'tag', tag_id::text, NULL, tag_id FROM video_tags GROUP BY tag_id ORDER BY count(*) DESC OFFSET 20 LIMIT 1`.execute(
        opened.db,
      );
    }
    let turn = 0;
    const next = (ids: number[]) => ids[turn++ % ids.length];
    // The public collection with the most items and its owner (the collection page and a user's
    // collections tab), asked here rather than kept with the landmarks: one grouping of collection_videos.
    const collection = (
      await sql<{
        id: number;
        uid: number;
        n: number;
      }>`SELECT c.collection_id AS id, c.owner_uid AS uid, count(*)::int AS n
        FROM collection_videos cv JOIN collections c ON c.collection_id = cv.collection_id AND c.visibility = 'public'
        GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`.execute(opened.db)
    ).rows[0];
    const paths: Record<string, () => { path: string; member?: boolean }> = {
      home: () => ({ path: 'video/home' }),
      'category (anime)': () => ({ path: 'video/category?category=anime&page=1' }),
      'history (the reader)': () => ({ path: 'history/filter', member: true }),
      "a user's collections": () => ({ path: `collection/list?uid=${collection.uid}` }),
      [`collection page 1 (${collection.n} items)`]: () => ({ path: `collection/get?collectionId=${collection.id}` }),
      'video (api/video)': () => ({ path: `video?videoId=${next(marks.videoIds)}` }),
      [`danmaku segment (${marks.danmaku.n} danmaku)`]: () => ({
        path: `video/danmaku?videoId=${marks.danmaku.id}&segment=0`,
      }),
      [`comments page 1 (${marks.comments.top} threads)`]: () => ({
        path: `video/comment?videoId=${marks.comments.id}&page=1`,
      }),
      [`comments page ${deepPage}`]: () => ({ path: `video/comment?videoId=${marks.comments.id}&page=${deepPage}` }),
      [`comments page ${deepPage} from the page before's edge`]: () => ({
        path: `video/comment?videoId=${marks.comments.id}&page=${deepPage}&after=new.${deepAfter}`,
      }),
      'comments hot page 1': () => ({ path: `video/comment?videoId=${marks.comments.id}&page=1&sort=hot` }),
      [`comments hot page ${deepPage}`]: () => ({
        path: `video/comment?videoId=${marks.comments.id}&page=${deepPage}&sort=hot`,
      }),
      [`comments page ${deepPage}, member with blocks`]: () => ({
        path: `video/comment?videoId=${marks.comments.id}&page=${deepPage}`,
        member: true,
      }),
      'home, member with blocks': () => ({ path: 'video/home', member: true }),
      [`user page, member with blocks (${marks.uploader.n} videos)`]: () => ({
        path: `video/user?uid=${marks.uploader.uid}&page=1`,
        member: true,
      }),
      [`feed (${marks.reader.n} follows)`]: () => ({ path: 'feed/videos?pageSize=20', member: true }),
      [`user page (${marks.uploader.n} videos)`]: () => ({ path: `video/user?uid=${marks.uploader.uid}&page=1` }),
      'search 猫 (1 CJK)': () => ({ path: `video/search?keyword=${encodeURIComponent('猫')}` }),
      'search 星空 (2 CJK)': () => ({ path: `video/search?keyword=${encodeURIComponent('星空')}` }),
      'search guitar (Latin)': () => ({ path: 'video/search?keyword=guitar' }),
      'search コーヒー (kana word)': () => ({ path: `video/search?keyword=${encodeURIComponent('コーヒー')}` }),
      'search starry sky (two Latin words)': () => ({
        path: `video/search?keyword=${encodeURIComponent('starry sky')}`,
      }),
      'search 星空 ギター (two CJK words)': () => ({
        path: `video/search?keyword=${encodeURIComponent('星空 ギター')}`,
      }),
      'search 猫 guitar (a CJK and a Latin word)': () => ({
        path: `video/search?keyword=${encodeURIComponent('猫 guitar')}`,
      }),
      [`search a tag (${marks.tag})`]: () => ({ path: `video/search?keyword=${encodeURIComponent(marks.tag)}` }),
      [`search an uploader name (${marks.uploader.name})`]: () => ({
        path: `video/search?keyword=${encodeURIComponent(marks.uploader.name)}`,
      }),
      'search no hits': () => ({ path: 'video/search?keyword=zzqxjv' }),
      related: () => ({ path: `video/related?videoId=${next(marks.popular)}` }),
    };
    server = await startWeb(databaseUrl, root);
    const results: Record<string, Summary> = {};
    // SCALE_ONLY=related measures only the paths whose label contains it.
    for (const [label, make] of Object.entries(paths).filter(([label]) => chosen(label))) {
      const times: number[] = [];
      const budgetEnds = performance.now() + PATH_BUDGET_S * 1000;
      for (let i = 0; i < WARMUP + REQUESTS && (i <= WARMUP || performance.now() < budgetEnds); i += 1) {
        const { path, member } = make();
        const { ms, status } = await timedGet(`http://127.0.0.1:${PORT}/api/${path}`, member ? { Cookie: cookie } : {});
        if (status !== 200) throw new Error(`${label}: ${path} answered ${status}`);
        if (i >= WARMUP) times.push(ms);
      }
      results[label] = summary(times);
      const key = label.replace(/ \(.*\)$/, '').replace(/page (?!1$)\d+$/, 'deep page');
      (perPath[key] ??= {})[videos] = results[label];
      console.log(
        `${videos} ${label.padEnd(42)} p50 ${results[label].p50} ms, p99 ${results[label].p99} ms (load ${loadavg()[0].toFixed(1)}; slowest ${results[label].slowest.join(' ')})`,
      );
    }

    // The danmaku segment uncached: before each request one danmaku of the segment is replaced and
    // the cache notice sent, as a send through another process does, so the server reads and
    // serializes the segment again. A sample counts only when the answer's ETag shows that rebuild
    // (a request that came before the notice was heard is asked again, and not counted). Twice: the
    // video with the most danmaku (the seeder ignores the pool cap, so all of them may fall in one
    // segment), and the busiest video whose pool is within its cap, the largest a send can leave.
    for (const [what, video] of [
      ['', marks.danmaku],
      [', full pool', marks.fullPool],
    ] as const) {
      const uncachedLabel = `danmaku segment uncached${what} (${video.n} danmaku)`;
      if (!chosen(uncachedLabel)) continue;
      const times: number[] = [];
      const url = `http://127.0.0.1:${PORT}/api/video/danmaku?videoId=${video.id}&segment=0`;
      let { etag } = await timedGet(url);
      let marker: number | null = null;
      let missed = 0;
      const budgetEnds = performance.now() + PATH_BUDGET_S * 1000;
      for (let i = 0; i < WARMUP + REQUESTS && (i <= WARMUP || performance.now() < budgetEnds); i += 1) {
        marker = await opened.db.transaction().execute(async (trx) => {
          if (marker !== null) await sql`DELETE FROM danmaku WHERE id = ${marker}`.execute(trx);
          const { rows } = await sql<{
            id: number;
          }>`INSERT INTO danmaku (video_id, target_type, uid, time, text, color, font_size, mode)
            VALUES (${video.id}, 'video', ${marks.reader.uid}, 1.5, 'bench', 'ffffff', 'medium', 'rtl') RETURNING id`.execute(
            trx,
          );
          await sql`SELECT pg_notify('cache.forget', ${JSON.stringify({ cache: 'danmaku', videoId: video.id })})`.execute(
            trx,
          );
          return rows[0].id;
        });
        for (let attempt = 0; ; attempt += 1) {
          const { ms, status, etag: now } = await timedGet(url);
          if (status !== 200) throw new Error(`${uncachedLabel}: answered ${status}`);
          if (now !== etag) {
            etag = now;
            if (i >= WARMUP) times.push(ms);
            break;
          }
          missed += 1;
          if (attempt > 50) throw new Error(`${uncachedLabel}: the server never rebuilt the segment`);
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
      if (marker !== null) await sql`DELETE FROM danmaku WHERE id = ${marker}`.execute(opened.db);
      results[uncachedLabel] = summary(times);
      (perPath[uncachedLabel.replace(/ \(.*\)$/, '')] ??= {})[videos] = results[uncachedLabel];
      console.log(
        `${videos} ${uncachedLabel.padEnd(42)} p50 ${results[uncachedLabel].p50} ms, p99 ${results[uncachedLabel].p99} ms (load ${loadavg()[0].toFixed(1)}; slowest ${results[uncachedLabel].slowest.join(' ')}; ${missed} answers before the notice, not counted)`,
      );
    }

    // The related list on its own: the repository call (what the handler awaits) and its plan (unless SCALE_ONLY leaves it out).
    if (chosen('related (repository)')) {
      const repository = createVideosRepository(opened.db, createRepositoryCaches());
      const relatedMs: number[] = [];
      for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
        const started = performance.now();
        await repository.related(next(marks.popular), null, 12);
        if (i >= WARMUP) relatedMs.push(performance.now() - started);
      }
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      const captured: CompiledQuery[] = [];
      const spy = new Kysely<Database>({
        dialect: new PostgresDialect({ pool }),
        log: (event) => {
          captured.push(event.query);
        },
      });
      await createVideosRepository(spy, createRepositoryCaches()).related(marks.popular[0], null, 12);
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${captured[0].sql}`, [...captured[0].parameters]);
      await spy.destroy();
      const plan = rows.map((r: Record<string, string>) => r['QUERY PLAN']);
      relatedCheck = {
        videos,
        history: marks.counts.history,
        repository: summary(relatedMs),
        http: results.related,
        plan,
      };
      console.log(
        `${videos} related (repository)${' '.repeat(21)} p50 ${round(percentile(relatedMs, 50))} ms, p99 ${round(percentile(relatedMs, 99))} ms (slowest ${summary(relatedMs).slowest.join(' ')})`,
      );
    }
    // The sitemaps (Astro pages, not served with SERVE_SITE=0): the repository calls their pages
    // await, the index's file list and the middle file's videos.
    if (chosen('sitemap')) {
      const repository = createVideosRepository(opened.db, createRepositoryCaches());
      const files = await repository.approvedIdRanges(SITEMAP_VIDEOS_PER_FILE);
      const middle = files[Math.floor(files.length / 2)].file;
      const calls: Record<string, () => Promise<unknown>> = {
        [`sitemap index (repository, ${files.length} files)`]: () =>
          repository.approvedIdRanges(SITEMAP_VIDEOS_PER_FILE),
        'sitemap file (repository)': () => repository.approvedInFile(middle, SITEMAP_VIDEOS_PER_FILE),
      };
      for (const [label, call] of Object.entries(calls)) {
        const times: number[] = [];
        for (let i = 0; i < WARMUP + REQUESTS; i += 1) {
          const started = performance.now();
          await call();
          if (i >= WARMUP) times.push(performance.now() - started);
        }
        results[label] = summary(times);
        (perPath[label.replace(/ \(.*\)$/, '')] ??= {})[videos] = results[label];
        console.log(
          `${videos} ${label.padEnd(42)} p50 ${results[label].p50} ms, p99 ${results[label].p99} ms (slowest ${results[label].slowest.join(' ')})`,
        );
      }
    }
    sizes[videos] = {
      database: name,
      seed,
      counts: marks.counts,
      landmarks: { ...marks, videoIds: undefined, popular: undefined },
      ms: results,
      loadAverageEnd: loadavg().map((l) => +l.toFixed(2)),
    };
  } finally {
    if (server) {
      server.kill('SIGTERM');
      await new Promise((resolve) => (server!.exitCode !== null ? resolve(null) : server!.once('exit', resolve)));
    }
    await opened.close();
    await rm(root, { recursive: true, force: true });
    if (process.env.SCALE_KEEP !== '1') await admin((c) => c.query(`DROP DATABASE ${name} WITH (FORCE)`));
  }
}

const [smallest, largest] = [Math.min(...SIZES), Math.max(...SIZES)];
const growth = Object.fromEntries(
  Object.entries(perPath)
    .filter(([, bySize]) => bySize[smallest] && bySize[largest])
    .map(([path, bySize]) => [
      path,
      {
        p50: round(bySize[largest].p50 / bySize[smallest].p50),
        p99: round(bySize[largest].p99 / bySize[smallest].p99),
      },
    ]),
);
const related = relatedCheck as { repository?: Summary; http?: Summary; videos?: number; history?: number };
const result = {
  bench: 'scale',
  date: new Date().toISOString(),
  machine: {
    platform: `${platform()} ${release()}`,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model,
    memoryGiB: round(totalmem() / 2 ** 30),
    node: process.version,
  },
  loadAverage: { start: loadAtStart, end: loadavg().map((l) => +l.toFixed(2)) },
  requestsPerPath: REQUESTS,
  warmup: WARMUP,
  sizes,
  growth: { from: smallest, to: largest, ratios: growth },
  relatedGoal: {
    p99Ms: RELATED_GOAL_P99_MS,
    at: { videos: related.videos, history: related.history },
    repositoryP99: related.repository?.p99 ?? null,
    httpP99: related.http?.p99 ?? null,
    met: related.repository ? related.repository.p99 <= RELATED_GOAL_P99_MS : null,
    plan: relatedCheck.plan,
  },
};
// An absolute SCALE_RESULT is written where it says (a run of another worktree's server, from its directory).
const resultFile = process.env.SCALE_RESULT ?? 'scale.json';
if (!resultFile.startsWith('/')) mkdirSync('bench/results', { recursive: true });
writeFileSync(
  resultFile.startsWith('/') ? resultFile : `bench/results/${resultFile}`,
  `${JSON.stringify(result, null, 2)}\n`,
);
console.log(
  JSON.stringify(
    { growth: result.growth, relatedGoal: { ...result.relatedGoal, plan: undefined }, loadAverage: result.loadAverage },
    null,
    2,
  ),
);
console.log(((relatedCheck.plan as string[] | undefined) ?? []).join('\n'));
