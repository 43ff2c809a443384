/**
 * PostgreSQL stopped and started under reads and writes, on a throwaway cluster of this file's
 * own (port 4531), never the shared server: while it is down every request is answered at once
 * with 503, SERVICE_UNAVAILABLE in the caller's language and Retry-After; once it is back the
 * pool reconnects by itself (same process), and every acknowledged write is there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { makeVideo, statusOf, tusCreate, upload, useVideoFixtures } from './media-helpers.ts';
import {
  canRunOwnPostgres,
  killLeftoverServers,
  scratchDir,
  seedDatabase,
  startOwnPostgres,
  startServerProcess,
  type OwnPostgres,
  type Seeded,
  type ServerProcess,
} from './fault-harness.ts';

const WRITERS = 10;
const json = (body: unknown, cookie: string): RequestInit => ({
  method: 'POST',
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', Cookie: cookie, 'Accept-Language': 'ja' },
});

useVideoFixtures();

describe.skipIf(!canRunOwnPostgres)('PostgreSQL restarted under load', () => {
  let cluster: OwnPostgres;
  let dataDir = '';
  let seeded: Seeded;
  let server: ServerProcess & { databaseUrl: string };

  beforeAll(async () => {
    cluster = await startOwnPostgres(4531);
    const databaseUrl = await cluster.freshDatabase();
    seeded = await seedDatabase({ databaseUrl }, WRITERS);
    dataDir = await scratchDir('outage');
    server = Object.assign(await startServerProcess({ DATA_DIR: dataDir, DATABASE_URL: databaseUrl }), { databaseUrl });
  }, 120_000);
  afterAll(async () => {
    killLeftoverServers();
    await cluster?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while it is down, recovers without a restart, loses nothing acknowledged', async () => {
    const { videoId, cookies } = seeded;
    const acknowledged: string[] = [];
    const outageAnswers: Array<{ status: number; code: string; message: string; retryAfter: string | null }> = [];
    const otherFailures: string[] = [];
    let phase: 'up' | 'down' | 'back' = 'up';
    let stop = false;
    let firstSuccessBack = 0;
    let restartedAt = 0;
    const slowest = { ms: 0 };

    /** Records one answer: a success, an outage refusal, or anything else (a failure of the test). */
    const record = async (answer: Response, started: number, onSuccess: () => void) => {
      slowest.ms = Math.max(slowest.ms, performance.now() - started);
      const body = await answer.json();
      if (answer.status === 200) {
        onSuccess();
        if (phase === 'back' && !firstSuccessBack) firstSuccessBack = performance.now();
      } else if (answer.status === 503) {
        outageAnswers.push({
          status: answer.status,
          code: body.code,
          message: body.message,
          retryAfter: answer.headers.get('retry-after'),
        });
      } else if (answer.status !== 429) {
        otherFailures.push(`${answer.status} ${body.code}`);
      }
    };
    const writer = async (i: number) => {
      for (let n = 0; !stop; n++) {
        const text = `停电 ${i}-${n}`;
        const started = performance.now();
        await record(await server.api('video/comment/emit', json({ videoId, text }, cookies[i])), started, () =>
          acknowledged.push(text),
        );
        // Past 10 a minute a member is refused with 429 (not counted as a failure).
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
    };
    const reader = async () => {
      while (!stop) {
        const started = performance.now();
        await record(
          await server.api(`video/comment?videoId=${videoId}`, { headers: { 'Accept-Language': 'ja' } }),
          started,
          () => {},
        );
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const load = [...Array.from({ length: WRITERS }, (_, i) => writer(i)), reader(), reader()];

    const waitFor = async (check: () => boolean) => {
      while (!check()) await new Promise((resolve) => setTimeout(resolve, 50));
    };
    await waitFor(() => acknowledged.length >= 10);
    cluster.stop();
    phase = 'down';
    await waitFor(() => outageAnswers.length >= 10);
    // Uploads and media files are refused the same way while it is down.
    const tus = await tusCreate(server.asTestServer(), cookies[1], 1000);
    expect([tus.status, (await tus.json()).code, tus.headers.get('retry-after')]).toEqual([
      503,
      'SERVICE_UNAVAILABLE',
      '5',
    ]);
    const media = await fetch(`${server.baseUrl}/media/hls/0123456789abcdef01234567/master.m3u8`);
    expect([media.status, media.headers.get('retry-after')]).toEqual([503, '5']);

    restartedAt = performance.now();
    cluster.start();
    phase = 'back';
    await waitFor(() => firstSuccessBack > 0);
    // Writes go through again too (reads and writes share the pool).
    const acknowledgedBeforeBack = acknowledged.length;
    await waitFor(() => acknowledged.length >= acknowledgedBeforeBack + 5);
    stop = true;
    await Promise.all(load);

    console.log(
      `[outage] ${acknowledged.length} writes acknowledged, ${outageAnswers.length} answered 503 while down; ` +
        `first success ${Math.round(firstSuccessBack - restartedAt)} ms after pg_ctl start returned; slowest answer ${Math.round(slowest.ms)} ms`,
    );
    expect(otherFailures).toEqual([]);
    for (const answer of outageAnswers) {
      expect(answer).toEqual({
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
        message: 'サービスが一時的に利用できません。しばらくしてからもう一度お試しください。',
        retryAfter: '5',
      });
    }
    // The same process throughout: it reconnected by itself.
    expect(server.logs.some((line) => line.msg === 'stopped' || line.msg === 'shutting down')).toBe(false);
    const stored = new Set<string>();
    for (let page = 1; ; page++) {
      const list = (await (await server.api(`video/comment?videoId=${videoId}&page=${page}&pageSize=50`)).json())
        .videoCommentList as Array<{ text: string }>;
      for (const comment of list) stored.add(comment.text);
      if (list.length < 50) break;
    }
    expect(acknowledged.filter((text) => !stored.has(text))).toEqual([]);

    // The job worker lived through it: a new upload is processed.
    const mediaId = await upload(server.asTestServer(), cookies[1], await makeVideo(2, 'after-outage.mp4'));
    expect((await statusOf(server.asTestServer(), cookies[1], mediaId)).status).toBe('ready');
  }, 120_000);

  // Pages rendered on demand need the built site (npm run build).
  it.skipIf(!existsSync('dist/server/entry.mjs'))(
    'answers pages 503 with Retry-After and the styled error page, logged once per outage',
    async () => {
      const { videoId, uids } = seeded;
      const siteDir = await scratchDir('outage-site');
      try {
        // No job worker in this one: its own complaints about the database are not what is looked at.
        const site = await startServerProcess({
          DATA_DIR: siteDir,
          DATABASE_URL: server.databaseUrl,
          SERVE_SITE: '1',
          WORKER: '0',
        });
        const pages = [
          `/en/video/kv${videoId}`,
          `/en/user/${uids[2]}`,
          `/ja/video/kv${videoId}`,
          `/ja/user/${uids[3]}`,
        ];
        // Warm: the pages render while the database is up.
        expect((await fetch(`${site.baseUrl}/en/user/${uids[1]}`)).status).toBe(200);

        cluster.stop();
        const answers = [];
        for (const page of [...pages, ...pages]) {
          const answer = await fetch(`${site.baseUrl}${page}`);
          answers.push({
            page,
            status: answer.status,
            retryAfter: answer.headers.get('retry-after'),
            type: answer.headers.get('content-type'),
            cache: answer.headers.get('cache-control'),
            html: await answer.text(),
          });
        }
        for (const answer of answers) {
          expect([answer.page, answer.status, answer.retryAfter, answer.cache]).toEqual([
            answer.page,
            503,
            '5',
            'no-store',
          ]);
          expect(answer.type).toMatch(/^text\/html/);
          // The site's styled error page (its layout and styles), in the page's language (asserted as
          // booleans: a failure would otherwise print the whole page).
          const message = answer.page.startsWith('/ja/')
            ? 'サービスが一時的に利用できません'
            : 'The service is briefly unavailable';
          expect({
            page: answer.page,
            status503: answer.html.includes('data-status="503"'),
            styled: answer.html.includes('<style>') && answer.html.includes('class="error-page"'),
            message: answer.html.includes(message),
          }).toEqual({ page: answer.page, status503: true, styled: true, message: true });
        }
        const refusedLines = () => site.logs.filter((line) => line.msg === 'pages refused: the database is away');
        expect(refusedLines()).toHaveLength(1);
        expect(refusedLines()[0]).toMatchObject({ level: 'warn', retryAfterSeconds: 5 });

        cluster.start();
        let back = 0;
        for (
          const started = Date.now();
          Date.now() - started < 30_000 && back !== 200;
          await new Promise((resolve) => setTimeout(resolve, 200))
        ) {
          back = (await fetch(`${site.baseUrl}${pages[0]}`)).status;
        }
        expect(back).toBe(200);
        const served = await site.logLine((line) => line.msg === 'pages served again');
        expect(served.refused).toBeGreaterThanOrEqual(answers.length);
        expect(refusedLines()).toHaveLength(1);
        // Pages are never answered 500 for it, and nothing was logged as an error.
        expect(site.logs.filter((line) => line.level === 'error')).toEqual([]);
      } finally {
        await rm(siteDir, { recursive: true, force: true });
      }
    },
    120_000,
  );
});
