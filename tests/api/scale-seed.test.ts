import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { seedScale, type ScaleSeedReport } from '../../server/demo/scale-seed.ts';
import { danmakuPoolCap } from '../../server/services/danmaku.ts';
import {
  DANMAKU_BY_LANG,
  DANMAKU_HIGHLIGHT,
  DANMAKU_OPENING,
  DANMAKU_POOL_SIZE,
  DANMAKU_SHARED,
  SEED_LANGS,
} from '../../server/demo/scale-vocabulary.ts';

/** The scale seeder (issue 30) at a tiny size, on each database: the rows are there, shaped as asked, and the read calls answer over them. */
describe.each(BACKENDS)('the scale seeder on %s', (backend) => {
  let server: TestServer;
  let report: ScaleSeedReport;
  const count = async (table: string, where = sql`true`) =>
    Number(
      (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE ${where}`.execute(server.db))
        .rows[0].n,
    );

  beforeAll(async () => {
    server = await startTestServer(backend);
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${(await sql<{ name: string }>`SELECT current_database() AS name`.execute(server.db)).rows[0].name}`;
      databaseUrl = url.toString();
    }
    report = await seedScale(
      server.db,
      { databaseUrl },
      {
        videos: 50,
        users: 20,
        danmakuPerVideo: 20,
        maxDanmakuPerVideo: 150,
        commentsPerVideo: 4,
        followsPerUser: 3,
        historyPerUser: 5,
        seed: 7,
      },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('writes every table the read paths need, as many rows as it reports', async () => {
    for (const table of ['videos', 'media', 'uploads', 'video_parts'] as const) expect(await count(table)).toBe(50);
    expect(await count('users')).toBe(20);
    for (const [table, written] of Object.entries(report.tables)) expect(await count(table), table).toBe(written.rows);
    expect(await count('watch_history')).toBe(20 * 5);
    // The reader follows everyone else; the others follow a few.
    expect(await count('follows', sql`follower_uid = ${report.landmarks.readerUid}`)).toBe(19);
    expect(report.tables.video_tags!.rows).toBeGreaterThanOrEqual(50);
    expect(report.tables.collection_videos!.rows).toBeGreaterThan(0);
    // Replies hang under a top-level comment of the same video.
    expect(
      await count(
        'comments',
        sql`comments.parent_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM comments p WHERE p.id = comments.parent_id AND p.video_id = comments.video_id AND p.parent_id IS NULL)`,
      ),
    ).toBe(0);
    // The site's own inserts go on after the seeded ids.
    const { uid } = await server.db
      .insertInto('users')
      .values({ username: 'after_the_seed' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    expect(uid).toBeGreaterThan(report.landmarks.readerUid + 19);
  });

  it('makes varied data: mostly approved, in several languages with CJK, popularity skewed', async () => {
    const approved = await count('videos', sql`status = 'approved'`);
    expect(approved).toBeGreaterThan(40);
    expect(approved).toBeLessThan(50);
    expect(await count('videos', sql`title ~ '[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af]'`)).toBeGreaterThan(10);
    expect(await count('videos', sql`title ~ '^[A-Za-z]'`)).toBeGreaterThan(3);
    const langs = (await sql<{ lang: string }>`SELECT DISTINCT lang FROM tag_names`.execute(server.db)).rows.map(
      (r) => r.lang,
    );
    expect(langs.length).toBeGreaterThanOrEqual(6);
    // Zipf: the busiest video holds far more than its share of the danmaku.
    expect(report.landmarks.mostDanmaku).toBeGreaterThan(5 * (report.tables.danmaku!.rows / 50));
    const span = (
      await sql<{
        days: number;
      }>`SELECT extract(epoch FROM max(created_at) - min(created_at)) / 86400 AS days FROM videos`.execute(server.db)
    ).rows[0];
    expect(Number(span.days)).toBeGreaterThan(300);
  });

  it('fills the search rankings of every approved video, and makes the videos with more danmaku than a pool long (decision 0034)', async () => {
    const many = async (query: ReturnType<typeof sql<{ n: number }>>) =>
      Number((await query.execute(server.db)).rows[0]!.n);
    const fresh = await many(
      sql`SELECT count(*)::int AS n FROM videos v, unnest(search_title_terms(v.search_text)) AS term WHERE v.status = 'approved'`,
    );
    expect(fresh).toBeGreaterThan(100);
    expect(await count('video_title_terms')).toBe(fresh);
    // The same rows as the database's own cut of each title (the seeder writes them itself when it skips the triggers).
    const expected = sql`SELECT term, search_bucket(v.watched_count) AS bucket, v.video_id FROM videos v, unnest(search_title_terms(v.search_text)) AS term WHERE v.status = 'approved'`;
    const kept = sql`SELECT term, bucket, video_id FROM video_title_terms`;
    expect(await many(sql`SELECT count(*)::int AS n FROM (${expected} EXCEPT ${kept}) d`)).toBe(0);
    expect(await many(sql`SELECT count(*)::int AS n FROM (${kept} EXCEPT ${expected}) d`)).toBe(0);
    expect(await count('video_tag_ranks')).toBe(
      await many(
        sql`SELECT count(*)::int AS n FROM videos v JOIN video_tags t ON t.video_id = v.video_id WHERE v.status = 'approved'`,
      ),
    );
    expect(
      await many(
        sql`SELECT count(*)::int AS n FROM video_tag_ranks r JOIN videos v ON v.video_id = r.video_id WHERE r.bucket <> search_bucket(v.watched_count)`,
      ),
    ).toBe(0);
    const busiest = await sql<{
      n: number;
      ms: number;
    }>`SELECT count(*)::int AS n, v.duration_ms AS ms FROM danmaku d JOIN videos v ON v.video_id = d.video_id
      GROUP BY v.video_id ORDER BY 1 DESC LIMIT 1`.execute(server.db);
    const { n, ms } = busiest.rows[0]!;
    expect(n).toBeGreaterThan(danmakuPoolCap(30));
    expect(n > danmakuPoolCap(ms / 1000) ? ms : Infinity).toBeGreaterThan(2_400_000); // over its pool only if it has the longest pool
  });

  it('makes the danmaku in the database as a real audience sends them (mean kept under the cap, senders, times, phrases)', async () => {
    const rows = report.tables.danmaku!.rows;
    expect(await count('danmaku')).toBe(rows);
    // The cap's excess goes to the other videos: the mean is the one asked for (50 x 20).
    expect(Math.abs(rows - 1000)).toBeLessThan(30);
    expect(report.landmarks.mostDanmaku).toBeLessThanOrEqual(150);
    const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(server.db)).rows[0]!;
    const shape = await one(sql<{
      outside: number;
      before: number;
      unordered: number;
      opening: number;
      white: number;
      rainbow: number;
    }>`SELECT count(*) FILTER (WHERE d.time < 0 OR d.time > v.duration_ms / 1000.0)::int AS outside,
        count(*) FILTER (WHERE d.created_at < v.created_at OR d.created_at > now())::int AS before,
        count(*) FILTER (WHERE d.created_at < d.previous)::int AS unordered,
        count(*) FILTER (WHERE d.time < v.duration_ms * 0.03 / 1000)::int AS opening,
        count(*) FILTER (WHERE d.color = 'ffffff')::int AS white,
        count(*) FILTER (WHERE d.rainbow)::int AS rainbow
      FROM (SELECT *, lag(created_at) OVER (PARTITION BY video_id ORDER BY id) AS previous FROM danmaku) d
      JOIN videos v ON v.video_id = d.video_id`);
    // Within the video, after it came out, ids rising with the time they were sent.
    expect(shape.outside).toBe(0);
    expect(shape.before).toBe(0);
    expect(shape.unordered).toBe(0);
    // The opening seconds are busy: about 8 % + 3 % of the rest in the first 3 % of the video.
    expect(shape.opening / rows).toBeGreaterThan(0.05);
    expect(shape.opening / rows).toBeLessThan(0.2);
    expect(shape.white / rows).toBeGreaterThan(0.6);
    expect(shape.white / rows).toBeLessThan(0.8);
    expect(shape.rainbow / rows).toBeLessThan(0.06);
    // Most were sent soon after the video came out (the cube of a uniform share of its time online).
    const early = await one(sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM danmaku d JOIN videos v ON v.video_id = d.video_id
      WHERE d.created_at < v.created_at + (now() - v.created_at) / 8`);
    expect(early.n / rows).toBeGreaterThan(0.35);
    // Senders by Zipf: the most active of the 20 members sends far more than a twentieth.
    const top = await one(
      sql<{ n: number }>`SELECT count(*)::int AS n FROM danmaku GROUP BY uid ORDER BY 1 DESC LIMIT 1`,
    );
    expect(top.n).toBeGreaterThan((2 * rows) / 20);
    // Phrases from the pools only, in every pool's language, most in the audience's own.
    for (const pool of [...Object.values(DANMAKU_BY_LANG), DANMAKU_SHARED, DANMAKU_OPENING, DANMAKU_HIGHLIGHT])
      expect(pool).toHaveLength(DANMAKU_POOL_SIZE);
    const known = new Set([
      ...Object.values(DANMAKU_BY_LANG).flat(),
      ...DANMAKU_SHARED,
      ...DANMAKU_OPENING,
      ...DANMAKU_HIGHLIGHT,
    ]);
    const texts = (await sql<{ text: string }>`SELECT DISTINCT text FROM danmaku`.execute(server.db)).rows.map(
      (r) => r.text,
    );
    expect(texts.filter((t) => !known.has(t))).toEqual([]);
    expect(texts.length).toBeGreaterThan(100);
    const scripts = [/[\u4e00-\u9fff]/, /[\u3040-\u30ff]/, /[\uac00-\ud7af]/, /^[a-z ’!?]+$/];
    for (const script of scripts) expect(texts.some((t) => script.test(t))).toBe(true);
    expect(new Set(SEED_LANGS.filter((lang) => DANMAKU_BY_LANG[lang].some((t) => texts.includes(t)))).size).toBe(9);
    const sent = await sql<{
      text: string;
      lang: (typeof SEED_LANGS)[number];
    }>`SELECT d.text, u.interface_language AS lang
      FROM danmaku d JOIN videos v ON v.video_id = d.video_id JOIN users u ON u.uid = v.uploader_uid`.execute(
      server.db,
    );
    let own = 0;
    let other = 0;
    for (const { text, lang } of sent.rows) {
      if (DANMAKU_BY_LANG[lang].includes(text)) own += 1;
      else if (SEED_LANGS.some((l) => DANMAKU_BY_LANG[l].includes(text))) other += 1;
    }
    expect(own / rows).toBeGreaterThan(0.45);
    expect(other / rows).toBeLessThan(0.15);
  });

  it('the read calls answer over the seeded rows: home, a video, search, related', async () => {
    const home = await jsonCall(server, 'video/home?pageSize=100');
    expect(home.status).toBe(200);
    expect(home.body.videosCount).toBe(await count('videos', sql`status = 'approved'`));
    const videoId = report.landmarks.mostDanmakuVideoId;
    const video = await jsonCall(server, `video?videoId=${videoId}`);
    expect(video.status).toBe(200);
    const { title } = await server.db
      .selectFrom('videos')
      .select('title')
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(video.body)).toContain(JSON.stringify(title).slice(1, -1));
    const search = await jsonCall(server, `video/search?pageSize=100&keyword=${encodeURIComponent(title)}`);
    expect(search.status).toBe(200);
    expect(search.body.videos.map((v: { videoId: number }) => v.videoId)).toContain(videoId);
    const danmaku = await jsonCall(server, `video/danmaku?videoId=${videoId}`);
    expect(danmaku.status).toBe(200);
    expect(danmaku.body.danmaku.length).toBe(report.landmarks.mostDanmaku);
    const related = await jsonCall(server, `video/related?videoId=${videoId}`);
    expect(related.status).toBe(200);
    expect(related.body.videos.length).toBeGreaterThan(0);
  });
});
