import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { seedScale } from '../../server/demo/scale-seed.ts';
import { walkWords } from '../../server/repositories/search-walk.sql.ts';
import { searchTerms } from '../../server/services/search-text.ts';
import { SEARCH_COUNT_EXACT } from '../../server/repositories/videos.repository.ts';

/**
 * Several search words read in their ranked order (decision 0020, third addendum): the page is
 * the one a ranking of every match gives, computed here from the rows themselves (each word 3 in
 * the title, else 2 in a tag's name, else 1 in the description, summed; then the popularity
 * bucket, then the newest), on each database, over a seeded catalogue in nine languages.
 */
describe.each(BACKENDS)('several search words on %s', (backend) => {
  let server: TestServer;
  let catalogue: Array<{ id: number; title: string; text: string; tags: string[]; bucket: number }> = [];

  beforeAll(async () => {
    server = await startTestServer(backend);
    let databaseUrl: string | undefined;
    if (backend === 'postgres') {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${(await sql<{ name: string }>`SELECT current_database() AS name`.execute(server.db)).rows[0]!.name}`;
      databaseUrl = url.toString();
    }
    await seedScale(
      server.db,
      { databaseUrl },
      {
        videos: 1500,
        users: 60,
        danmakuPerVideo: 0,
        commentsPerVideo: 0,
        followsPerUser: 1,
        historyPerUser: 1,
        seed: 11,
      },
    );
    catalogue = (
      await sql<{
        id: number;
        search_text: string;
        tags: string[] | null;
        bucket: number;
      }>`SELECT v.video_id AS id, v.search_text,
        (SELECT array_agg(tn.name_lower) FROM video_tags vt JOIN tag_names tn ON tn.tag_id = vt.tag_id WHERE vt.video_id = v.video_id) AS tags,
        search_bucket(v.watched_count) AS bucket
      FROM videos v WHERE v.status = 'approved'`.execute(server.db)
    ).rows.map((r) => ({
      id: r.id,
      title: r.search_text.split('\n')[0]!,
      text: r.search_text,
      tags: r.tags ?? [],
      bucket: Number(r.bucket),
    }));
  }, 300_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Every match of the words, in the ranking's order. */
  function fullRanking(words: string[]): number[] {
    const scoreOf = (video: (typeof catalogue)[number], word: string): number =>
      video.title.includes(word)
        ? 3
        : video.tags.some((name) => name.includes(word))
          ? 2
          : video.text.includes(word)
            ? 1
            : 0;
    return catalogue
      .map((video) => ({ video, scores: words.map((word) => scoreOf(video, word)) }))
      .filter(({ scores }) => scores.every((s) => s > 0))
      .map(({ video, scores }) => ({ ...video, total: scores.reduce((a, b) => a + b, 0) }))
      .sort((a, b) => b.total - a.total || b.bucket - a.bucket || b.id - a.id)
      .map((video) => video.id);
  }

  // Two Latin words, two CJK words of one language and of two, a CJK word with a Latin one, a word
  // of one Latin letter beside a word with pieces, and one word no video holds.
  const queries = [
    'starry sky',
    'guitar piano',
    '星空 ギター',
    '星空 吉他',
    '猫 cat',
    '猫 guitar',
    '夜 星空 猫',
    'a cat',
    'starry zzqxjv',
  ];

  it.each(queries)(
    'answers "%s" with the full ranking’s pages and count',
    async (keyword) => {
      const expected = fullRanking(searchTerms(keyword));
      for (const page of [1, 2]) {
        const { status, body } = await jsonCall(
          server,
          `video/search?keyword=${encodeURIComponent(keyword)}&page=${page}&pageSize=20`,
        );
        expect(status).toBe(200);
        expect(
          body.videos.map((v: { videoId: number }) => v.videoId),
          `page ${page}`,
        ).toEqual(expected.slice((page - 1) * 20, page * 20));
        // Exact below SEARCH_COUNT_EXACT; past it an estimate, never below what a walk must find.
        // The page says "about N" only for an estimate (`videosCountEstimated`), which one word never is.
        if (expected.length < SEARCH_COUNT_EXACT) {
          expect(body.videosCount).toBe(expected.length);
          expect(body.videosCountEstimated).toBeUndefined();
        } else {
          expect(body.videosCount).toBeGreaterThanOrEqual(Math.max(SEARCH_COUNT_EXACT, page * 20));
          expect(body.videosCount).toBeLessThanOrEqual(1000);
          expect(body.videosCountEstimated).toBe(searchTerms(keyword).length > 1 ? true : undefined);
        }
      }
    },
    60_000,
  );

  it.each(queries)(
    'counts "%s" exactly below the threshold and estimates past it, with the same first rows',
    async (keyword) => {
      const words = searchTerms(keyword);
      const expected = fullRanking(words);
      for (const exactBelow of [8, 30]) {
        const walked = await walkWords(server.db, words, null, 1000, 5, exactBelow);
        expect(walked, `${exactBelow}`).not.toBeNull();
        expect(walked!.ids.slice(0, 5), `${exactBelow}`).toEqual(expected.slice(0, 5));
        if (expected.length < exactBelow) expect(walked!.count, `${exactBelow}`).toBe(expected.length);
        else {
          expect(walked!.count, `${exactBelow}`).toBeGreaterThanOrEqual(exactBelow);
          expect(walked!.count, `${exactBelow}`).toBeLessThanOrEqual(Math.min(1000, 4 * expected.length));
        }
      }
    },
    60_000,
  );

  it.each(queries)(
    'stops its walk early for "%s" and still has the exact first rows (a small limit: several batches, every level)',
    async (keyword) => {
      const words = searchTerms(keyword);
      const expected = fullRanking(words);
      for (const [limit, pageEnd] of [
        [12, 5],
        [30, 10],
        [60, 60],
      ] as const) {
        const walked = await walkWords(server.db, words, null, limit, pageEnd);
        expect(walked, `${limit}/${pageEnd}`).not.toBeNull();
        expect(walked!.ids.slice(0, pageEnd), `${limit}/${pageEnd}`).toEqual(expected.slice(0, pageEnd));
        expect(walked!.count, `${limit}/${pageEnd}`).toBe(Math.min(limit, expected.length));
      }
    },
    60_000,
  );

  it('leaves words of one or two Latin letters alone to the candidate union', async () => {
    expect(await walkWords(server.db, ['a', 'of'], null, 1000, 20)).toBeNull();
    const { body } = await jsonCall(server, `video/search?keyword=${encodeURIComponent('a of')}`);
    expect(body.videos.length).toBeGreaterThan(0);
  });
});
