/**
 * Hot counters held in memory for a window (docs/decisions/0023): a video's views, a track's
 * plays and the uploader's "likes" notification are written once per window, not once per
 * request. Nothing counted is lost: not across a window's write, not when the server drains
 * before the window closes (the drain writes them before the database closes, read back here
 * from a new connection).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../../server/main.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createLikesRepository } from '../../server/repositories/likes.repository.ts';
import { sql } from 'kysely';
import { createSession } from '../../server/auth/sessions.ts';
import { BACKENDS, countingStatements, freshPostgresDatabase, openDatabase, type TestServer } from './harness.ts';
import { insertAudio, insertVideo } from './media-helpers.ts';

const send = (body: unknown, cookie: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', Cookie: cookie },
});

describe.each(BACKENDS)('hot counters on %s', (backend) => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A server over a database that outlives it (a PostgreSQL database, or PGlite in a folder), and how to reopen that database. */
  async function lastingServer(env: Record<string, string> = {}) {
    const pgDb = backend === 'postgres' ? await freshPostgresDatabase() : null;
    const dataDir = pgDb ? null : await mkdtemp(join(tmpdir(), 'kira-hot-'));
    cleanups.push(async () => {
      await pgDb?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    });
    const running = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: pgDb?.url,
      DATA_DIR: dataDir ?? ':memory:',
      SERVE_SITE: '0',
      LOG_LEVEL: 'error',
      DEMO: '0',
      API_CHECK_RESPONSES: '1',
      NOTIFICATION_DIGEST_CHECK_MS: '0',
      DATABASE_POOL_KEPT: '2',
      ...env,
    });
    const baseUrl = `http://127.0.0.1:${running.port}`;
    const server = {
      baseUrl,
      api: (path: string, init?: RequestInit) => fetch(`${baseUrl}/api/${path}`, init),
      db: running.database.db,
    } as TestServer;
    const reopen = () => openDatabase(pgDb ? { databaseUrl: pgDb.url } : { dataDir: dataDir! });
    return { running, server, reopen };
  }

  /** The like rows of a video (committed: read from the pool). */
  const likeRowsOf = async (server: Pick<TestServer, 'db'>, videoId: number) =>
    Number(
      (
        await server.db
          .selectFrom('media_likes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('target_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** Members with sessions, written straight to the database (no password hashing: many are needed). */
  async function members(server: Pick<TestServer, 'db'>, prefix: string, count: number): Promise<string[]> {
    const rows = Array.from({ length: count }, (_, i) => ({
      username: `${prefix}${i}`,
      email: `${prefix}${i}@example.com`,
      password_hash: null,
    }));
    const uids = (await server.db.insertInto('users').values(rows).returning('uid').execute()).map((r) => r.uid);
    const repositories = createRepositories(server.db);
    return Promise.all(uids.map(async (uid) => `uid=${uid}; token=${await createSession(repositories, uid)}`));
  }

  it('counts every view and every liker across a window’s write and a drain that comes before the window closes', async () => {
    // Windows of an hour: here, only an explicit flush or the drain writes what they hold.
    const { running, server, reopen } = await lastingServer({ HOT_COUNTER_WINDOW_MS: '3600000' });
    const [uploader, ...fans] = await members(server, 'fan', 25);
    const videoId = await insertVideo(server, uploader, 60_000);

    // Twelve views, their window written; twelve more (each fan once an hour, a second time not counted).
    const watch = async (cookie: string) => (await server.api('video/watch', send({ videoId }, cookie))).json();
    const first = await Promise.all(fans.slice(0, 12).map(watch));
    expect(first.every((answer) => answer.counted)).toBe(true);
    // The answer counts what this process holds too: the last of them saw all twelve.
    expect(Math.max(...first.map((answer) => answer.watchedCount))).toBe(12);
    await running.services.videos.flushViews();
    expect(
      (
        await server.db
          .selectFrom('videos')
          .select('watched_count')
          .where('video_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).watched_count,
    ).toBe(12);
    const second = await Promise.all([...fans.slice(12), ...fans.slice(0, 3)].map(watch));
    expect(second.filter((answer) => answer.counted)).toHaveLength(12);
    expect(await watch(fans[0])).toMatchObject({ counted: false, watchedCount: 24 });

    // A track's plays: the same window.
    const audioId = await insertAudio(server, uploader, 60_000);
    const plays = await Promise.all(
      fans.slice(0, 5).map(async (fan) => (await server.api('audio/play', send({ audioId }, fan))).json()),
    );
    expect(plays.every((answer) => answer.counted)).toBe(true);
    expect(Math.max(...plays.map((answer) => answer.playCount))).toBe(5);

    // Every fan likes (some twice, at once): twelve likes, one notification entry to come.
    const likes = await Promise.all(
      [...fans, ...fans.slice(0, 6)].map((fan) => server.api('video/like', send({ videoId, mediaType: 'video' }, fan))),
    );
    expect(likes.every((answer) => answer.status === 200)).toBe(true);
    expect((await (await server.api(`video?videoId=${videoId}`)).json()).likeCount).toBe(24);
    expect(await server.db.selectFrom('notifications').select('id').where('kind', '=', 'like').execute()).toEqual([]);
    expect(
      (
        await server.db
          .selectFrom('videos')
          .select('watched_count')
          .where('video_id', '=', videoId)
          .executeTakeFirstOrThrow()
      ).watched_count,
    ).toBe(12);

    // The server drains now, with both windows open: what they hold is written before the database closes.
    await running.close();
    const database = await reopen();
    try {
      const video = await database.db
        .selectFrom('videos')
        .select('watched_count')
        .where('video_id', '=', videoId)
        .executeTakeFirstOrThrow();
      expect(video.watched_count).toBe(24);
      const track = await database.db
        .selectFrom('audio_tracks')
        .select('play_count')
        .where('audio_id', '=', audioId)
        .executeTakeFirstOrThrow();
      expect(Number(track.play_count)).toBe(5);
      const notification = await database.db
        .selectFrom('notifications')
        .select(['actor_count', 'actor_uids'])
        .where('kind', '=', 'like')
        .where('target_id', '=', videoId)
        .execute();
      expect(notification).toHaveLength(1);
      expect(notification[0].actor_count).toBe(24);
      expect(notification[0].actor_uids).toHaveLength(10);
      const { n } = await database.db
        .selectFrom('like_counter_shards')
        .select((eb) => eb.fn.sum<string>('likes').as('n'))
        .where('target_id', '=', videoId)
        .executeTakeFirstOrThrow();
      expect(Number(n)).toBe(24);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('shows a window of likes as one entry with every liker counted and the newest named, and a second window adds to it', async () => {
    const { running, server } = await lastingServer();
    cleanups.push(() => running.close());
    const [uploader, ...fans] = await members(server, 'liker', 13);
    const videoId = await insertVideo(server, uploader, 60_000);
    const list = async () =>
      (
        await (
          await server.api('notification/list?kind=like', { headers: { Cookie: uploader, 'X-Client-Language': 'en' } })
        ).json()
      ).notifications as Array<{ actorCount: number; actors: { username: string }[]; text: string; isRead: boolean }>;
    const like = (fan: string, method = 'POST') =>
      server.api(
        method === 'POST' ? 'video/like' : 'video/like/cancel',
        send({ videoId, mediaType: 'video' }, fan, method),
      );

    // Ten likes one after another, each answered with the count at once.
    for (const [i, fan] of fans.slice(0, 10).entries()) expect((await (await like(fan)).json()).likeCount).toBe(i + 1);
    // The entry comes within the window (no wait here past it: the poll ends as soon as it is there).
    await expect.poll(async () => (await list())[0]?.actorCount, { timeout: 15_000, interval: 100 }).toBe(10);
    const [entry] = await list();
    // The fans are liker1 to liker12 (liker0 uploaded), newest first.
    expect(entry.actors.map((a) => a.username)).toEqual(['liker10', 'liker9', 'liker8']);
    expect(entry.text).toMatch(/^liker10, liker9 and 8 others liked “/);

    // The next window: two new likers and one who took their like back and gave it again (counted once).
    expect((await (await like(fans[0], 'DELETE')).json()).likeCount).toBe(9);
    for (const fan of [fans[10], fans[0], fans[11]]) expect((await like(fan)).status).toBe(200);
    await running.services.notifications.flushLikes();
    const [again] = await list();
    expect(again.actorCount).toBe(12);
    expect(again.actors.map((a) => a.username)).toEqual(['liker12', 'liker1', 'liker11']);
    expect(again.isRead).toBe(false);
    expect(await list()).toHaveLength(1);
  }, 180_000);

  it('commits a like and an unlike without waiting for the disk, and only them: the same connection’s next statement waits again', async () => {
    const { running, server } = await lastingServer();
    cleanups.push(() => running.close());
    const [uploader, fan] = await members(server, 'flush', 2);
    const videoId = await insertVideo(server, uploader, 60_000);
    const uid = Number(/uid=(\d+)/.exec(fan)![1]);
    const uploaderUid = Number(/uid=(\d+)/.exec(uploader)![1]);
    const item = { type: 'video' as const, id: videoId };
    const committed = () => likeRowsOf(server, videoId);
    // Each on one connection with what follows it (decision 0038: the setting is the statement's own
    // transaction's; left on the connection, every later commit from the pool would skip the flush).
    const onOneConnection = <T>(act: (likes: ReturnType<typeof createLikesRepository>) => Promise<T>) =>
      server.db.connection().execute(async (connection) => {
        const commitMode = async () =>
          (await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(connection)).rows[0]
            .synchronous_commit;
        expect(await commitMode()).toBe('on');
        const answer = await act(createLikesRepository(connection));
        expect(await commitMode()).toBe('on');
        return answer;
      });
    expect(await onOneConnection((likes) => likes.like(uid, item, uploaderUid))).toEqual({
      blocked: false,
      added: true,
      likeCount: 1,
    });
    // Committed: read from the pool (another connection on PostgreSQL).
    expect(await committed()).toBe(1);
    expect(await onOneConnection((likes) => likes.unlike(uid, item))).toEqual({ removed: true, likeCount: 0 });
    expect(await committed()).toBe(0);
  }, 180_000);

  it('writes the likes and unlikes of one moment in one statement, each answered with its own outcome (decision 0040)', async () => {
    const { running, server } = await lastingServer();
    cleanups.push(() => running.close());
    const [uploader, blockedFan, ...fans] = await members(server, 'batch', 32);
    const videoId = await insertVideo(server, uploader, 60_000);
    const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
    const uploaderUid = uidOf(uploader);
    expect((await server.api('block/user', send({ blockUid: uidOf(blockedFan) }, uploader))).status).toBe(200);
    const item = { type: 'video' as const, id: videoId };
    // The statements the repository sends.
    const statements = countingStatements(server.db);
    const likes = createLikesRepository(statements.db);
    const likeRows = () => likeRowsOf(server, videoId);

    // 30 members at once, one of them blocked by the uploader: one statement; the blocked one is refused, the others counted.
    const [refused, ...given] = await Promise.all(
      [blockedFan, ...fans].map((fan) => likes.like(uidOf(fan), item, uploaderUid)),
    );
    expect(statements.count).toBe(1);
    expect(refused).toEqual({ blocked: true, added: false, likeCount: 30 });
    expect(given).toEqual(fans.map(() => ({ blocked: false, added: true, likeCount: 30 })));
    expect(await likeRows()).toBe(30);

    // A member twice in one moment goes in a later statement, in the order asked (a request joins
    // the last batch unless its member is in it): like again (counted once), unlike then like,
    // like then unlike; each answer is its own. 29 liked (`fresh` took theirs back) when it starts.
    const [a, b, c] = fans.slice(0, 3).map(uidOf);
    const fresh = uidOf(fans[29]);
    await likes.unlike(fresh, item);
    statements.count = 0;
    const answers = await Promise.all([
      likes.unlike(a, item), // 1st statement: 28
      likes.like(a, item, uploaderUid), // 2nd: a again, b out, fresh in: 29
      likes.unlike(b, item),
      likes.like(fresh, item, uploaderUid),
      likes.like(fresh, item, uploaderUid), // 3rd: fresh already likes it
      likes.unlike(fresh, item), // 4th: fresh and c out: 27
      likes.unlike(c, item),
    ]);
    expect(statements.count).toBe(4);
    expect(answers).toEqual([
      { removed: true, likeCount: 28 },
      { blocked: false, added: true, likeCount: 29 },
      { removed: true, likeCount: 29 },
      { blocked: false, added: true, likeCount: 29 },
      { blocked: false, added: false, likeCount: 29 },
      { removed: true, likeCount: 27 },
      { removed: true, likeCount: 27 },
    ]);
    expect(await likeRows()).toBe(27);
    expect((await likes.factsOf(item, fresh)).isLiked).toBe(false);
    expect((await likes.factsOf(item, a)).isLiked).toBe(true);
    expect((await likes.factsOf(item, c)).isLiked).toBe(false);
    expect((await likes.factsOf(item, b)).likeCount).toBe(27);
  }, 180_000);

  // On PostgreSQL each connection keeps the statement's generic plan after five runs (decision
  // 0035), chosen for no particular item: it must not read the item's other likes, or a batch's
  // cost grows with them (with the unlikes as `uid IN (SELECT …)` it read every one: decision 0040's addendum).
  it.runIf(backend === 'postgres')(
    'writes a batch of likes without reading the item’s other likes, and an unlike reading only its own row, on the generic plan',
    async () => {
      const { running, server } = await lastingServer();
      cleanups.push(() => running.close());
      const [uploader, ...fans] = await members(server, 'plan', 304);
      const videoId = await insertVideo(server, uploader, 60_000);
      const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
      const uploaderUid = uidOf(uploader);
      const item = { type: 'video' as const, id: videoId };
      const liked = fans.slice(0, 300).map(uidOf);
      const pool = createLikesRepository(server.db);
      for (let i = 0; i < liked.length; i += 50)
        await Promise.all(liked.slice(i, i + 50).map((uid) => pool.like(uid, item, uploaderUid)));
      expect(await likeRowsOf(server, videoId)).toBe(300);
      // On one connection, in a transaction rolled back: its own counts of the rows it read.
      await server.db.connection().execute(async (connection) => {
        const likes = createLikesRepository(connection);
        const rowsRead = async () =>
          Number(
            (
              await sql<{
                n: string;
              }>`SELECT idx_tup_fetch + seq_tup_read AS n FROM pg_stat_xact_user_tables WHERE relname = 'media_likes'`.execute(
                connection,
              )
            ).rows[0].n,
          );
        await sql`BEGIN`.execute(connection);
        try {
          await sql`SET LOCAL plan_cache_mode = force_generic_plan`.execute(connection);
          const [a, b, c] = fans.slice(300).map(uidOf);
          let before = await rowsRead();
          // Three new likes and one given again, one statement: only the row of the one given
          // again is read (its conflict found), none of the 299 others.
          await Promise.all([a, b, c, liked[0]].map((uid) => likes.like(uid, item, uploaderUid)));
          expect(await rowsRead()).toBe(before + 1);
          // An unlike beside a like given again: the unliker's row and the other's conflict, no more.
          before = await rowsRead();
          const [gone] = await Promise.all([likes.unlike(liked[1], item), likes.like(liked[2], item, uploaderUid)]);
          expect(gone).toEqual({ removed: true, likeCount: 302 });
          expect(await rowsRead()).toBe(before + 2);
        } finally {
          await sql`ROLLBACK`.execute(connection);
        }
      });
    },
    180_000,
  );

  it('counts many members’ concurrent likes and unlikes through the API, refuses the blocked one among them, and tells the uploader of each liker once', async () => {
    const { running, server } = await lastingServer();
    cleanups.push(() => running.close());
    const [uploader, blockedFan, ...fans] = await members(server, 'crowd', 42);
    const videoId = await insertVideo(server, uploader, 60_000);
    const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
    expect((await server.api('block/user', send({ blockUid: uidOf(blockedFan) }, uploader))).status).toBe(200);
    const like = (fan: string, method = 'POST') =>
      server.api(
        method === 'POST' ? 'video/like' : 'video/like/cancel',
        send({ videoId, mediaType: 'video' }, fan, method),
      );
    // Every fan twice at once, the blocked member among them.
    const answers = await Promise.all([blockedFan, ...fans, ...fans].map((fan) => like(fan)));
    const [refused, ...given] = answers;
    expect([refused.status, (await refused.json()).code]).toEqual([403, 'BLOCKED_BY_UPLOADER']);
    expect(given.map((a) => a.status)).toEqual(given.map(() => 200));
    const counts = await Promise.all(given.map(async (a) => (await a.json()).likeCount as number));
    expect(Math.max(...counts)).toBe(40);
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect((await (await server.api(`video?videoId=${videoId}`)).json()).likeCount).toBe(40);

    // The uploader's one entry has each of the 40 likers once (decision 0023's window, unchanged; a like given again in a later window may count again, as before).
    await running.services.notifications.flushLikes();
    const entry = await server.db
      .selectFrom('notifications')
      .select('actor_count')
      .where('recipient_uid', '=', uidOf(uploader))
      .where('kind', '=', 'like')
      .executeTakeFirstOrThrow();
    expect(entry.actor_count).toBe(40);

    // Each of ten fans takes the like back and gives it again at once, ten others take it back:
    // whatever order they arrive in, the count is the likes stored and each answer is its member's.
    const again = await Promise.all(
      fans
        .slice(0, 10)
        .flatMap((fan) => [like(fan, 'DELETE'), like(fan)])
        .concat(fans.slice(10, 20).map((fan) => like(fan, 'DELETE'))),
    );
    expect(again.map((a) => a.status)).toEqual(again.map(() => 200));
    const bodies = await Promise.all(
      again.map(async (a) => (await a.json()) as { likeCount: number; isLiked: boolean }),
    );
    for (const body of bodies) expect(body.likeCount).toBeGreaterThanOrEqual(20);
    const rows = await server.db.selectFrom('media_likes').select('uid').where('target_id', '=', videoId).execute();
    const stored = new Set(rows.map((r) => Number(r.uid)));
    expect(fans.slice(10, 20).some((fan) => stored.has(uidOf(fan)))).toBe(false);
    expect(stored.has(uidOf(blockedFan))).toBe(false);
    expect((await (await server.api(`video?videoId=${videoId}`)).json()).likeCount).toBe(stored.size);
    for (const fan of fans.slice(0, 10))
      expect((await (await server.api(`video?videoId=${videoId}`, { headers: { Cookie: fan } })).json()).isLiked).toBe(
        stored.has(uidOf(fan)),
      );
  }, 180_000);
});
