/**
 * GET api/feed/videos for a member who follows 1000 uploaders, on the real server as the API
 * tests start it (tests/api/harness.ts startTestServer('postgres'): a fresh PostgreSQL database
 * on TEST_DATABASE_URL, created and dropped here, migrations as in production).
 * Data: 2000 uploaders with 100 videos each (200 000 videos, created every 37 s going back ~85
 * days, uploaders interleaved). Two members:
 * - "busy" follows 1000 of them, so 100 000 videos are theirs (half of all the site's videos);
 * - "sparse" follows 1000 other uploaders who made 3 videos each (3000 spread over the same 85
 *   days): their videos are 1.5 % of the site's, the case where walking the site's newest videos
 *   and keeping the followed ones reads many;
 * - "dormant" follows 1000 uploaders who made one video each, all older than every other video:
 *   walking the site's newest videos would read all of them before the first match.
 * Of all videos 1 in 20 is pending and 1 in 5 was not pushed to the feed; every video has one of 50
 * tags. Each member blocked 2 tags and 5 followed uploaders and hid 5 more: the feed's filter
 * (the one every list applies) has work to do.
 * Measured, per member: REQUESTS sequential calls of the service (FollowService.feed over the
 * server's database, as the handler calls it) and REQUESTS HTTP requests (one connection, as a
 * member scrolls), alternating the first page and a page 10 pages deep (its cursor read once
 * before), 20 per page, after WARMUP of each; wall time per call. Also EXPLAIN (ANALYZE, BUFFERS)
 * of the SQL the repository sends, for each member and page. Goal: p99 <= 50 ms (the service).
 * Usage: node bench/feed.ts [requests=200]   (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { Kysely, PostgresDialect, sql, type CompiledQuery } from 'kysely';
import pg from 'pg';
import type { Database } from '../server/db/schema.ts';

const REQUESTS = Number(process.argv[2]) || 200;
const WARMUP = 20;
const PAGE_SIZE = 20;
const UPLOADERS = 2000;
const FOLLOWED = 1000;
const VIDEOS_PER_UPLOADER = 100;
const GOAL_P99_MS = 50;
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const round = (x: number) => +x.toFixed(2);

const loadAtStart = loadavg().map((l) => +l.toFixed(2));
const { startTestServer } = await import('../tests/api/harness.ts');
const { member } = await import('../tests/api/media-helpers.ts');
const { createVideosRepository } = await import('../server/repositories/videos.repository.ts');
const { createRepositoryCaches } = await import('../server/repositories/caches.ts');
const { createFollowService, decodeCursor } = await import('../server/services/follows.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { createAudioService } = await import('../server/services/audio.ts');
const { createPhotoService } = await import('../server/services/photos.ts');
const server = await startTestServer('postgres', { env: { WORKER: '0' } });
try {
  const setupStarted = performance.now();
  const { db } = server;
  const first = Number(
    (
      await sql<{
        uid: number;
      }>`INSERT INTO users (username) SELECT 'uploader' || g FROM generate_series(1, ${UPLOADERS}) g RETURNING uid`.execute(
        db,
      )
    ).rows[0].uid,
  );
  const total = UPLOADERS * VIDEOS_PER_UPLOADER;
  const videosBy = (uploaderOf: ReturnType<typeof sql>, count: number, every: number) =>
    sql`INSERT INTO videos (uploader_uid, title, status, push_to_feed, created_at, duration_ms, search_text, category)
    SELECT ${uploaderOf}, 'video ' || g, CASE WHEN g % 20 = 0 THEN 'pending' ELSE 'approved' END, g % 5 <> 0,
      now() - g * ${every} * interval '1 second', 60000 + g % 600000, 'video ' || g, 'misc'
    FROM generate_series(1, ${count}) g`.execute(db);
  await videosBy(sql`${first} + (g % ${UPLOADERS})`, total, 37);
  const quietFirst = Number(
    (
      await sql<{
        uid: number;
      }>`INSERT INTO users (username) SELECT 'quiet' || g FROM generate_series(1, ${FOLLOWED}) g RETURNING uid`.execute(
        db,
      )
    ).rows[0].uid,
  );
  await videosBy(sql`${quietFirst} + (g % ${FOLLOWED})`, 3 * FOLLOWED, Math.floor((37 * total) / (3 * FOLLOWED)));
  const dormantFirst = Number(
    (
      await sql<{
        uid: number;
      }>`INSERT INTO users (username) SELECT 'dormant' || g FROM generate_series(1, ${FOLLOWED}) g RETURNING uid`.execute(
        db,
      )
    ).rows[0].uid,
  );
  await sql`INSERT INTO videos (uploader_uid, title, status, push_to_feed, created_at, duration_ms, search_text, category)
    SELECT ${dormantFirst} + g - 1, 'old video ' || g, 'approved', true, now() - interval '100 days' - g * interval '1 hour', 60000, 'old video ' || g, 'misc'
    FROM generate_series(1, ${FOLLOWED}) g`.execute(db);
  await sql`INSERT INTO uploads (id, uid, file_name, size, max_duration_seconds, expires_at, media_id)
    SELECT lpad(to_hex(video_id), 32, '0'), uploader_uid, 'v.mp4', 1, 1800, now(), lpad(to_hex(video_id), 24, '0') FROM videos`.execute(
    db,
  );
  await sql`INSERT INTO media (media_id, upload_id, uid, status, duration_ms, width, height, renditions)
    SELECT lpad(to_hex(video_id), 24, '0'), lpad(to_hex(video_id), 32, '0'), uploader_uid, 'ready', duration_ms, 1280, 720, ARRAY[360, 720] FROM videos`.execute(
    db,
  );
  await sql`INSERT INTO video_parts (video_id, part_index, media_id) SELECT video_id, 0, lpad(to_hex(video_id), 24, '0') FROM videos`.execute(
    db,
  );
  const firstTag = Number(
    (
      await sql<{
        tag_id: number;
      }>`INSERT INTO tags (created_by) SELECT ${first} FROM generate_series(1, 50) RETURNING tag_id`.execute(db)
    ).rows[0].tag_id,
  );
  await sql`INSERT INTO video_tags (video_id, tag_id, position) SELECT video_id, ${firstTag} + video_id % 50, 0 FROM videos`.execute(
    db,
  );

  /** A member following 1000 uploaders (`followedUid(g)` for g in 0..999), with 2 blocked tags, 5 blocked and 5 hidden of them. */
  async function reader(name: string, followedUid: (g: ReturnType<typeof sql>) => ReturnType<typeof sql>) {
    const cookie = await member(server, name);
    const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
    await sql`INSERT INTO follows (follower_uid, followed_uid, created_at)
      SELECT ${uid}, ${followedUid(sql`g`)}, now() - g * interval '1 minute' FROM generate_series(0, ${FOLLOWED - 1}) g`.execute(
      db,
    );
    await sql`INSERT INTO block_entries (uid, type, value, tag_id) VALUES (${uid}, 'tag', ${String(firstTag)}, ${firstTag}), (${uid}, 'tag', ${String(firstTag + 7)}, ${firstTag + 7})`.execute(
      db,
    );
    await sql`INSERT INTO block_entries (uid, type, value, target_uid)
      SELECT ${uid}, CASE WHEN g < 5 THEN 'block' ELSE 'hide' END, (${followedUid(sql`g`)})::text, ${followedUid(sql`g`)} FROM generate_series(0, 9) g`.execute(
      db,
    );
    return { cookie, uid };
  }
  // Busy: the uploaders with even offsets (interleaved in time with the others). Sparse: the quiet ones.
  const readers = {
    busy: await reader('busy', (g) => sql`${first} + 2 * ${g}`),
    sparse: await reader('sparse', (g) => sql`${quietFirst} + ${g}`),
    dormant: await reader('dormant', (g) => sql`${dormantFirst} + ${g}`),
  };
  await sql`VACUUM ANALYZE`.execute(db);
  const setupSeconds = round((performance.now() - setupStarted) / 1000);

  // The feed reads tracks and posts from their repositories only: the sections' file stores are not used.
  const repositories = createRepositories(db);
  const service = createFollowService(repositories, {
    audio: createAudioService(repositories, { media: {} as never }),
    photos: createPhotoService(repositories, {} as never),
  });
  type Call = (who: { cookie: string; uid: number }, cursor?: string) => Promise<{ ms: number; nextCursor: string }>;
  const check = (count: number, nextCursor: string | null, what: string) => {
    if (count !== PAGE_SIZE || !nextCursor) throw new Error(`${what}: ${count} videos, next ${nextCursor}`);
  };
  const layers: Record<'service' | 'http', Call> = {
    service: async (who, cursor) => {
      const started = performance.now();
      const page = await service.feed(who.uid, { cursor, pageSize: PAGE_SIZE });
      const ms = performance.now() - started;
      check(page.videos.length, page.nextCursor, 'service');
      return { ms, nextCursor: page.nextCursor! };
    },
    http: async (who, cursor) => {
      const started = performance.now();
      const res = await server.api(`feed/videos?pageSize=${PAGE_SIZE}${cursor ? `&cursor=${cursor}` : ''}`, {
        headers: { Cookie: who.cookie },
      });
      const body = (await res.json()) as { videos: unknown[]; nextCursor: string | null };
      const ms = performance.now() - started;
      check(res.status === 200 ? body.videos.length : -res.status, body.nextCursor, 'http');
      return { ms, nextCursor: body.nextCursor! };
    },
  };
  const summary = (xs: number[]) => ({
    n: xs.length,
    p50: round(percentile(xs, 50)),
    p90: round(percentile(xs, 90)),
    p99: round(percentile(xs, 99)),
    max: round(Math.max(...xs)),
  });
  const results: Record<
    string,
    Record<
      string,
      ReturnType<typeof summary> & { firstPage: ReturnType<typeof summary>; deepPage: ReturnType<typeof summary> }
    >
  > = {};
  const samples: Record<string, Record<string, { firstPage: number[]; deepPage: number[] }>> = {};
  const deepCursors: Record<string, string> = {};
  for (const [name, who] of Object.entries(readers)) {
    // The cursor 10 pages deep (after 200 videos).
    let cursor = '';
    for (let i = 0; i < 10; i += 1) cursor = (await layers.service(who, cursor || undefined)).nextCursor;
    deepCursors[name] = cursor;
    results[name] = {};
    samples[name] = {};
    for (const [layer, run] of Object.entries(layers)) {
      for (let i = 0; i < WARMUP; i += 1) await run(who, i % 2 ? cursor : undefined);
      const taken = { firstPage: [] as number[], deepPage: [] as number[] };
      for (let i = 0; i < REQUESTS; i += 1) {
        if (i % 2) taken.deepPage.push((await run(who, cursor)).ms);
        else taken.firstPage.push((await run(who)).ms);
      }
      samples[name][layer] = { firstPage: taken.firstPage.map(round), deepPage: taken.deepPage.map(round) };
      results[name][layer] = {
        ...summary([...taken.firstPage, ...taken.deepPage]),
        firstPage: summary(taken.firstPage),
        deepPage: summary(taken.deepPage),
      };
    }
  }

  // The repository's SQL, captured from a Kysely over the same database, then explained.
  const url = new URL(process.env.TEST_DATABASE_URL);
  url.pathname = `/${(await sql<{ name: string }>`SELECT current_database() AS name`.execute(db)).rows[0].name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 1 });
  const captured: CompiledQuery[] = [];
  const spy = new Kysely<Database>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      captured.push(event.query);
    },
  });
  const plans: Record<string, string[]> = {};
  for (const [name, who] of Object.entries(readers)) {
    for (const [page, cursor] of [
      ['firstPage', undefined],
      ['deepPage', deepCursors[name]],
    ] as const) {
      captured.length = 0;
      await createVideosRepository(spy, createRepositoryCaches()).feedPage(
        who.uid,
        decodeCursor(cursor),
        PAGE_SIZE + 1,
      );
      const { rows } = await pool.query(`EXPLAIN (ANALYZE, BUFFERS) ${captured[0].sql}`, [...captured[0].parameters]);
      plans[`${name} ${page}`] = rows.map((r: Record<string, string>) => r['QUERY PLAN']);
    }
  }
  await spy.destroy();

  const worstServiceP99 = Math.max(...Object.values(results).map((r) => r.service.p99));
  const result = {
    bench: 'feed',
    date: new Date().toISOString(),
    machine: {
      platform: `${platform()} ${release()}`,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memoryGiB: round(totalmem() / 2 ** 30),
      node: process.version,
    },
    loadAverage: { start: loadAtStart, end: loadavg().map((l) => +l.toFixed(2)) },
    setup: {
      database: 'postgres',
      uploaders: UPLOADERS + 2 * FOLLOWED,
      videos: total + 4 * FOLLOWED,
      followedPerMember: FOLLOWED,
      followedVideos: { busy: FOLLOWED * VIDEOS_PER_UPLOADER, sparse: 3 * FOLLOWED, dormant: FOLLOWED },
      pendingShare: 0.05,
      notPushedShare: 0.2,
      blockedTags: 2,
      blockedUploaders: 5,
      hiddenUploaders: 5,
      pageSize: PAGE_SIZE,
      requestsPerLayer: REQUESTS,
      warmup: WARMUP,
      deepPage: 10,
      setupSeconds,
    },
    ms: results,
    goal: { p99Ms: GOAL_P99_MS, on: 'service', worstP99: worstServiceP99, met: worstServiceP99 <= GOAL_P99_MS },
    plans,
    samples,
  };
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/feed.json', `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    JSON.stringify({ ms: result.ms, goal: result.goal, loadAverage: result.loadAverage, setupSeconds }, null, 2),
  );
  for (const [name, plan] of Object.entries(plans)) console.log(`\n${name}:\n${plan.join('\n')}`);
} finally {
  await server.close();
}
