/**
 * Query plans at size (issue 30, item 4): PostgreSQL filled by the scale seeder with 100 000
 * videos and the rows around them, then every hot read path is called over HTTP as a visitor
 * or a member calls it, and each SELECT it sent (seen as sent, with its parameters: the
 * server's `onQuery` observer) is EXPLAINed: none may read videos, their parts, tags or media,
 * danmaku, comments, watch history or follows by a sequential scan. The planner chooses by the
 * table's real size and statistics here, so a path that works on six demo videos and scans at a
 * hundred thousand fails.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CompiledQuery, sql } from 'kysely';
import { jsonCall, startTestServer, type TestServer } from './harness.ts';
import { seedScale } from '../../server/demo/scale-seed.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { SITEMAP_VIDEOS_PER_FILE } from '../../src/lib/navigation/sitemap.ts';

const VIDEOS = 100_000;
/** The tables a hot path must reach through an index. */
const BIG_TABLES = [
  'videos',
  'video_parts',
  'video_tags',
  'media',
  'danmaku',
  'comments',
  'watch_history',
  'follows',
  'video_title_terms',
  'video_tag_ranks',
];

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}
const seqScansOf = (node: PlanNode): string[] => [
  ...(node['Node Type'] === 'Seq Scan' && node['Relation Name'] ? [node['Relation Name']] : []),
  ...(node.Plans ?? []).flatMap(seqScansOf),
];

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  `query plans of the read paths at ${VIDEOS} videos on PostgreSQL`,
  () => {
    let server: TestServer;
    let cookie = '';
    let sent: CompiledQuery[] = [];
    const marks = {
      video: 0,
      danmakuVideo: 0,
      commentsVideo: 0,
      deepPage: 1,
      /** The edge of the page before the deep one, newest first (a cursor as the list answers it). */
      deepAfter: '',
      uploader: 0,
      collection: 0,
      tag: '',
    };

    beforeAll(async () => {
      server = await startTestServer('postgres', { onQuery: (query) => sent.push(query) });
      const url = new URL(process.env.TEST_DATABASE_URL!);
      url.pathname = `/${(await sql<{ name: string }>`SELECT current_database() AS name`.execute(server.db)).rows[0]!.name}`;
      const report = await seedScale(
        server.db,
        { databaseUrl: url.toString() },
        {
          videos: VIDEOS,
          users: 5_000,
          danmakuPerVideo: 5,
          commentsPerVideo: 2,
          followsPerUser: 20,
          historyPerUser: 20,
          seed: 30,
        },
      );
      // As autovacuum leaves a site after bulk inserts: statistics, and the visibility map that index-only scans need.
      await sql`VACUUM ANALYZE`.execute(server.db);
      const one = async <T>(query: ReturnType<typeof sql<T>>) => (await query.execute(server.db)).rows[0]!;
      const approved = sql`JOIN videos v ON v.video_id = x.video_id AND v.status = 'approved'`;
      marks.video = (
        await one(
          sql<{
            id: number;
          }>`SELECT x.video_id AS id FROM watch_history x ${approved} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
        )
      ).id;
      marks.danmakuVideo = (
        await one(
          sql<{
            id: number;
          }>`SELECT x.video_id AS id FROM danmaku x ${approved} GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
        )
      ).id;
      const comments = await one(
        sql<{
          id: number;
          top: number;
        }>`SELECT x.video_id AS id, count(*) FILTER (WHERE x.parent_id IS NULL)::int AS top FROM comments x ${approved} GROUP BY 1 ORDER BY 2 DESC LIMIT 1`,
      );
      marks.commentsVideo = comments.id;
      marks.deepPage = Math.max(2, Math.floor(comments.top / 20));
      marks.uploader = report.landmarks.biggestUploaderUid;
      marks.collection = (
        await one(
          sql<{
            id: number;
          }>`SELECT collection_id AS id FROM collection_videos JOIN collections USING (collection_id)
            WHERE visibility = 'public' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
        )
      ).id;
      marks.tag = (
        await one(
          sql<{
            name: string;
          }>`SELECT n.name FROM tag_names n JOIN video_tags t ON t.tag_id = n.tag_id GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
        )
      ).name;
      marks.deepAfter = `new.${
        (
          await one(
            sql<{
              floor: number;
            }>`SELECT floor FROM comments WHERE video_id = ${marks.commentsVideo} AND parent_id IS NULL AND NOT pinned
              ORDER BY floor DESC OFFSET ${(marks.deepPage - 1) * 20 - 1} LIMIT 1`,
          )
        ).floor
      }`;
      const repositories = createRepositories(server.db);
      const reader = report.landmarks.readerUid;
      cookie = `uid=${reader}; token=${await createSession(repositories, reader)}`;
      // The reader's block lists: the busiest uploader, another one, and a tag of middling use (a
      // member's counts are the guests' less what these hide, counted from them).
      const middling = await one(
        sql<{
          id: number;
        }>`SELECT tag_id AS id FROM video_tags GROUP BY 1 ORDER BY count(*) DESC OFFSET 20 LIMIT 1`,
      );
      const someone = await one(sql<{ uid: number }>`SELECT uid FROM comments WHERE video_id = ${marks.commentsVideo}
        AND parent_id IS NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`);
      await server.db
        .insertInto('block_entries')
        .values([
          { uid: reader, type: 'block', value: String(marks.uploader), target_uid: marks.uploader, tag_id: null },
          { uid: reader, type: 'hide', value: String(someone.uid), target_uid: someone.uid, tag_id: null },
          { uid: reader, type: 'block', value: String(someone.uid), target_uid: someone.uid, tag_id: null },
          { uid: reader, type: 'tag', value: String(middling.id), target_uid: null, tag_id: middling.id },
        ])
        .execute();
    }, 600_000);
    afterAll(async () => {
      await server?.close();
    });

    /** Calls a path and EXPLAINs each SELECT it sent; answers the big tables it scanned, per statement. */
    async function scansOf(path: string, member = false) {
      sent = [];
      const res = await jsonCall(server, path, member ? { cookie } : {});
      expect(res.status, `${path}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      const selects = sent.filter((query) => /^\s*(select|with)\b/i.test(query.sql));
      expect(selects.length, path).toBeGreaterThan(0);
      const found: string[] = [];
      for (const query of selects) {
        const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${query.sql}`, [...query.parameters]),
        );
        const scanned = seqScansOf(rows[0]!['QUERY PLAN'][0]!.Plan).filter((table) => BIG_TABLES.includes(table));
        if (scanned.length) found.push(`${scanned.join(', ')} in: ${query.sql.replace(/\s+/g, ' ').slice(0, 240)}`);
      }
      return found;
    }

    const paths: Array<[string, () => string, boolean?]> = [
      ['home', () => 'video/home'],
      ['a category', () => 'video/category?category=anime'],
      ['a video', () => `video?videoId=${marks.video}`],
      ['the related list', () => `video/related?videoId=${marks.video}`],
      ['a danmaku segment of the busiest video', () => `video/danmaku?videoId=${marks.danmakuVideo}&segment=0`],
      ['comments, page 1', () => `video/comment?videoId=${marks.commentsVideo}&page=1`],
      ['comments, a deep page', () => `video/comment?videoId=${marks.commentsVideo}&page=${marks.deepPage}`],
      [
        'comments, a deep page from the page before’s edge',
        () => `video/comment?videoId=${marks.commentsVideo}&page=${marks.deepPage}&after=${marks.deepAfter}`,
      ],
      ['comments, hot, page 1', () => `video/comment?videoId=${marks.commentsVideo}&page=1&sort=hot`],
      [
        'comments, hot, a deep page',
        () => `video/comment?videoId=${marks.commentsVideo}&page=${marks.deepPage}&sort=hot`,
      ],
      [
        'comments, a deep page, as a member who blocked people',
        () => `video/comment?videoId=${marks.commentsVideo}&page=${marks.deepPage}`,
        true,
      ],
      ['home, as a member with block lists', () => 'video/home', true],
      ['an uploader’s videos, as a member with block lists', () => `video/user?uid=${marks.uploader}&page=1`, true],
      ['an uploader’s videos', () => `video/user?uid=${marks.uploader}&page=1`],
      ['search, one CJK character', () => `video/search?keyword=${encodeURIComponent('猫')}`],
      ['search, two CJK characters', () => `video/search?keyword=${encodeURIComponent('星空')}`],
      ['search, a Latin word', () => 'video/search?keyword=guitar'],
      ['search, a tag', () => `video/search?keyword=${encodeURIComponent(marks.tag)}`],
      ['search, no hits', () => 'video/search?keyword=zzqxjv'],
      ['search, a kana word', () => `video/search?keyword=${encodeURIComponent('コーヒー')}`],
      ['search, two Latin words', () => `video/search?keyword=${encodeURIComponent('starry sky')}`],
      ['search, two CJK words', () => `video/search?keyword=${encodeURIComponent('星空 ギター')}`],
      ['search, a CJK word and a Latin word', () => `video/search?keyword=${encodeURIComponent('猫 guitar')}`],
      ['search, a word with a member’s block lists', () => `video/search?keyword=${encodeURIComponent('猫')}`, true],
      ['a collection', () => `collection/get?collectionId=${marks.collection}`],
      ['the feed of a member who follows many', () => 'feed/videos?pageSize=20', true],
      ['the member’s history', () => 'history/filter', true],
    ];
    it.each(paths)(
      '%s reads every big table through an index',
      async (_label, path, member) => {
        expect(await scansOf(path(), member)).toEqual([]);
      },
      120_000,
    );

    it('reads a very common word in its ranked order and stops at the page (no sort, no union of its matches)', async () => {
      for (const word of ['猫', 'guitar']) {
        sent = [];
        await jsonCall(server, `video/search?keyword=${encodeURIComponent(word)}`, {});
        const walk = sent.find((query) => /from video_title_terms p where p\.term = \$\d/i.test(query.sql));
        expect(walk, sent.map((query) => query.sql).join('\n')).toBeDefined();
        const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${walk!.sql}`, [...walk!.parameters]),
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan).toMatch(/^Limit.*\n.*Index Only Scan Backward using video_title_terms_pkey/);
        expect(plan).not.toMatch(/Sort|Hash/);
      }
    }, 120_000);

    it('reads several words in the rarest one’s ranked order, scoring the others per row read, and stops at a batch (no sort, no union of matches)', async () => {
      for (const keyword of ['starry sky', '星空 ギター', '猫 guitar']) {
        sent = [];
        await jsonCall(server, `video/search?keyword=${encodeURIComponent(keyword)}`, {});
        const walk = sent.find((query) =>
          /from video_title_terms p\s+where p\.term = \$\d+ and \(p\.bucket, p\.video_id\) </i.test(query.sql),
        );
        expect(walk, sent.map((query) => query.sql).join('\n')).toBeDefined();
        expect(
          sent.some((query) => /union all/i.test(query.sql)),
          keyword,
        ).toBe(false);
        const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${walk!.sql}`, [...walk!.parameters]),
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, keyword).toMatch(
          /Limit.*\n.*Index Only Scan Backward using video_title_terms_pkey on video_title_terms p\s.*\n.*Index Cond: \(\(term = .*\) AND \(ROW\(bucket, video_id\) < ROW\(/,
        );
        expect(plan, keyword).not.toMatch(/Sort|Seq Scan/);
      }
    }, 120_000);

    it('reads a comment page’s thread heads from the index of its order alone (no sort, no heap row per skipped head) and keeps the count', async () => {
      for (const sort of ['new', 'hot'] as const)
        for (const member of [false, true]) {
          sent = [];
          await jsonCall(
            server,
            `video/comment?videoId=${marks.commentsVideo}&page=${marks.deepPage}&sort=${sort}`,
            member ? { cookie } : {},
          );
          const heads = sent.find((query) => /parent_id IS NULL AND NOT c\.pinned/.test(query.sql));
          expect(heads, sent.map((query) => query.sql).join('\n')).toBeDefined();
          const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${heads!.sql}`, [...heads!.parameters]),
          );
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          // The page's heads come straight from the index under the Limit (no sort of them; the
          // only sort allowed is of the page's few ids for the IN).
          expect(plan, `${sort} ${member}`).toMatch(
            new RegExp(`Limit[^\\n]*\\n\\s*->\\s*Index Only Scan (Backward )?using comments_heads_${sort} on comments`),
          );
          expect(plan, `${sort} ${member}`).not.toMatch(/Sort Key: (c_1|\(\(c_1)|Seq Scan on comments|comments_floor/);
          // The count: the kept row, and (a member) the blocked people's heads on this video.
          const count = sent.find((query) => /comment_thread_counts/.test(query.sql));
          expect(count).toBeDefined();
          const counted = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`EXPLAIN ${count!.sql}`, [...count!.parameters]),
          );
          const countPlan = counted.rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(countPlan).not.toMatch(/Seq Scan on comments|comments_heads/);
          if (member) expect(countPlan).toMatch(/comments_author_heads/);
        }
    }, 120_000);

    it('reads a danmaku segment in one walk of its index, in the list’s order (no sort, no heap row per danmaku), within its pool or over it', async () => {
      const { n } = (
        await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM danmaku WHERE video_id = ${marks.danmakuVideo}`.execute(server.db)
      ).rows[0]!;
      // The video's own pool (it holds fewer), then a pool of a third of them: the pool's edge is
      // found in danmaku_by_age (index-only) and the segment's rows still come from danmaku_segment alone.
      for (const cap of [n + 1, Math.max(1, Math.floor(n / 3))]) {
        sent = [];
        // The repository's own statement (the answer may be cached by the path's call above).
        await createRepositories(server.db).danmaku.listOf(
          { type: 'video', id: marks.danmakuVideo },
          { from: 0, to: 360 },
          null,
          cap,
        );
        const list = sent.find((query) => /from "danmaku"/i.test(query.sql) && /order by "time"/i.test(query.sql));
        expect(list, sent.map((query) => query.sql).join('\n')).toBeDefined();
        const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`EXPLAIN ${list!.sql}`, [...list!.parameters]),
        );
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, `cap ${cap}`).toMatch(/^Index Only Scan using danmaku_segment on danmaku/);
        expect(plan, `cap ${cap}`).toMatch(/Index Only Scan Backward using danmaku_by_age on danmaku e/);
        expect(plan, `cap ${cap}`).not.toMatch(/Sort|danmaku_pkey|Seq Scan/);
      }
    }, 120_000);

    it('lists the sitemap index’s files by index descents, not by grouping every approved video', async () => {
      sent = [];
      const repositories = createRepositories(server.db);
      const files = await repositories.videos.approvedIdRanges(SITEMAP_VIDEOS_PER_FILE);
      // The same files and dates as grouping every approved video (the statement before migration 0039).
      const grouped = await sql<{ file: number; updated: Date }>`SELECT (video_id - 1) / 2000 + 1 AS file,
        max(coalesce(reviewed_at, created_at)) AS updated FROM videos WHERE status = 'approved' GROUP BY 1 ORDER BY 1`.execute(
        server.db,
      );
      expect(files).toEqual(grouped.rows.map((r) => ({ file: Number(r.file), updated: new Date(r.updated) })));
      expect(files.length).toBeGreaterThan(1);
      const list = sent.find((query) => /with recursive files/i.test(query.sql));
      expect(list, sent.map((query) => query.sql).join('\n')).toBeDefined();
      const { rows } = await server.db.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`EXPLAIN ${list!.sql}`, [...list!.parameters]),
      );
      const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
      expect(plan).toMatch(/Index (Only )?Scan Backward using videos_sitemap_files on videos/);
      expect(plan).not.toMatch(/Seq Scan on videos|HashAggregate|GroupAggregate/);
    }, 120_000);
  },
);
