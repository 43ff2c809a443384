/**
 * Comment pages at size (issue 30, decision 0039): the thread count kept by migration 0037's
 * trigger stays equal to a recount through every way a thread comes or goes (a comment, a reply,
 * a deletion that keeps or drops a head, an account's hard delete), a member's count leaves out
 * the people they blocked, and the keyset cursors walk the same pages as the page numbers, both
 * ways, in both orders.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const send = (method: string, body: unknown, cookie?: string): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
});
type Thread = { id: number; commentIndex: number; isPinned: boolean; isDeleted: boolean; uid: number };
type ListAnswer = {
  videoCommentCount: number;
  videoCommentList: Thread[];
  nextCursor: string | null;
  previousCursor: string | null;
};

describe.each(BACKENDS)('comment pages and kept thread counts on %s', (backend) => {
  let server: TestServer;
  let owner = '';
  let writers: string[] = [];
  let reader = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    owner = await member(server, 'Owner');
    reader = await member(server, 'Reader');
    writers = [await member(server, 'Wren'), await member(server, 'Xan'), await member(server, 'Yoko')];
  }, 180_000);
  afterAll(() => server?.close());

  const list = async (query: string, cookie?: string) => {
    const res = await server.api(`video/comment?${query}`, cookie ? { headers: { Cookie: cookie } } : {});
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body as ListAnswer;
  };
  /** Comments written straight into the table (the trigger is what is under test, not the writer's limit). */
  const write = async (videoId: number, rows: Array<{ uid: number; parent?: number; votes?: number }>) => {
    const ids: number[] = [];
    for (const row of rows) {
      const { comment_floor: floor } = await server.db
        .updateTable('videos')
        .set((eb) => ({ comment_floor: eb('comment_floor', '+', 1) }))
        .where('video_id', '=', videoId)
        .returning('comment_floor')
        .executeTakeFirstOrThrow();
      const { id } = await server.db
        .insertInto('comments')
        .values({
          video_id: videoId,
          floor,
          uid: row.uid,
          text: `<p>floor ${floor}</p>`,
          parent_id: row.parent ?? null,
          mentions: '[]',
          upvote_count: Math.max(0, row.votes ?? 0),
          downvote_count: Math.max(0, -(row.votes ?? 0)),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(Number(id));
    }
    return ids;
  };
  /** What the kept count must equal: the shown heads, counted from the rows. */
  const recount = async (videoId: number) =>
    Number(
      (
        await sql<{
          n: number;
        }>`SELECT count(*) AS n FROM comments h WHERE h.video_id = ${videoId} AND h.target_type = 'video'
          AND h.parent_id IS NULL AND (h.deleted_at IS NULL OR EXISTS (
            SELECT 1 FROM comments r WHERE r.parent_id = h.id AND r.deleted_at IS NULL))`.execute(server.db)
      ).rows[0]!.n,
    );
  const kept = async (videoId: number) =>
    Number(
      (
        await server.db
          .selectFrom('comment_thread_counts')
          .select('threads')
          .where('target_type', '=', 'video')
          .where('target_id', '=', videoId)
          .executeTakeFirst()
      )?.threads ?? 0,
    );
  const removeOnFloor = async (videoId: number, id: number, cookie: string) => {
    const { floor } = await server.db
      .selectFrom('comments')
      .select('floor')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const res = await server.api(
      'video/comment/deleteSelfComment',
      send('DELETE', { videoId, commentRoute: `${videoId}.${floor}` }, cookie),
    );
    expect(res.status).toBe(200);
  };

  it('keeps the thread count equal to a recount through comments, replies, deletions and an account’s removal', async () => {
    const videoId = await insertVideo(server, owner, 60_000);
    const [w, x, y] = writers.map(uidOf);
    const gone = await member(server, 'Gone');
    const [a, b, c, d] = await write(videoId, [{ uid: w }, { uid: x }, { uid: y }, { uid: uidOf(gone) }]);
    expect(await kept(videoId)).toBe(4);
    // Replies do not add threads; through the API too (the writer's own transaction).
    await write(videoId, [
      { uid: x, parent: a },
      { uid: uidOf(gone), parent: b },
    ]);
    const answer = await server.api(
      'video/comment/emit',
      send('POST', { videoId, text: 'a reply', parentId: c }, reader),
    );
    expect(answer.status).toBe(200);
    const replyToC = (await answer.json()).comment.id as number;
    expect(await kept(videoId)).toBe(4);
    expect((await list(`videoId=${videoId}`)).videoCommentCount).toBe(4);

    // A head with a live reply stays as "deleted"; without one it goes.
    await removeOnFloor(videoId, a, writers[0]!);
    expect(await kept(videoId)).toBe(4);
    await removeOnFloor(videoId, d, gone);
    expect(await kept(videoId)).toBe(3);
    // The last live reply of a deleted head deleted: the head goes with it.
    await removeOnFloor(videoId, c, writers[2]!);
    expect(await kept(videoId)).toBe(3);
    await removeOnFloor(videoId, replyToC, reader);
    expect(await kept(videoId)).toBe(2);
    expect(await recount(videoId)).toBe(2);

    // An account removed takes its comments and their replies by cascade: b's head loses its only
    // reply (by Gone); a's reply is Xan's, so a still shows.
    await removeOnFloor(videoId, b, writers[1]!);
    expect(await kept(videoId)).toBe(2);
    await server.db.deleteFrom('users').where('uid', '=', uidOf(gone)).execute();
    expect(await kept(videoId)).toBe(await recount(videoId));
    expect(await kept(videoId)).toBe(1);
    const page = await list(`videoId=${videoId}`);
    expect(page.videoCommentCount).toBe(1);
    expect(page.videoCommentList.map((t) => [t.id, t.isDeleted])).toEqual([[a, true]]);
  });

  it('walks the same pages by number and by cursor, down and up, in both orders, with the pin on page 1', async () => {
    const videoId = await insertVideo(server, owner, 60_000);
    const [w, x, y] = writers.map(uidOf);
    // 47 threads: scores repeat (the floor breaks ties), one deleted without replies (hidden),
    // one deleted with a reply (shown), one pinned.
    const ids = await write(
      videoId,
      Array.from({ length: 47 }, (_, i) => ({ uid: [w, x, y][i % 3]!, votes: ((i * 7) % 5) - 1 })),
    );
    await write(videoId, [{ uid: x, parent: ids[10] }]);
    await server.db
      .updateTable('comments')
      .set({ deleted_at: new Date() })
      .where('id', 'in', [ids[10]!, ids[20]!])
      .execute();
    const pinRes = await server.api('video/comment/pin', send('POST', { videoId, id: ids[30], pinned: true }, owner));
    expect(pinRes.status).toBe(200);
    expect(await kept(videoId)).toBe(46);

    for (const sort of ['new', 'hot'] as const) {
      const base = `videoId=${videoId}&pageSize=10&sort=${sort}`;
      const byNumber: number[][] = [];
      for (let n = 1; n <= 5; n += 1)
        byNumber.push((await list(`${base}&page=${n}`)).videoCommentList.map((t) => t.id));
      expect(byNumber.flat()).toHaveLength(46);
      expect(new Set(byNumber.flat()).size).toBe(46);
      expect(byNumber[0]![0]).toBe(ids[30]);
      expect(byNumber.flat()).not.toContain(ids[20]);
      // The order itself: newest floor first, or best score then newest.
      const rows = await server.db
        .selectFrom('comments')
        .select(['id', 'floor', 'upvote_count', 'downvote_count'])
        .where('id', 'in', byNumber.flat().slice(1))
        .execute();
      const score = (r: (typeof rows)[number]) => r.upvote_count - r.downvote_count;
      const expected = [...rows]
        .sort((p, q) => (sort === 'hot' ? score(q) - score(p) : 0) || q.floor - p.floor)
        .map((r) => Number(r.id));
      expect(byNumber.flat().slice(1)).toEqual(expected);

      // Down by cursor, then back up by cursor.
      let answer = await list(`${base}&page=1`);
      const down: number[][] = [answer.videoCommentList.map((t) => t.id)];
      for (let n = 2; n <= 5; n += 1) {
        expect(answer.nextCursor).toMatch(new RegExp(`^${sort}\\.`));
        answer = await list(`${base}&page=${n}&after=${answer.nextCursor}`);
        down.push(answer.videoCommentList.map((t) => t.id));
      }
      expect(answer.nextCursor).toBeNull();
      expect(down).toEqual(byNumber);
      for (let n = 4; n >= 2; n -= 1) {
        answer = await list(`${base}&page=${n}&before=${answer.previousCursor}`);
        expect(answer.videoCommentList.map((t) => t.id)).toEqual(byNumber[n - 1]);
      }
      expect(answer.videoCommentCount).toBe(46);
    }
  });

  it('leaves the threads of people a member blocked out of their count and pages, not a guest’s', async () => {
    const videoId = await insertVideo(server, owner, 60_000);
    const [w, x] = writers.map(uidOf);
    await write(
      videoId,
      Array.from({ length: 12 }, (_, i) => ({ uid: i % 3 === 0 ? x : w })),
    );
    expect((await server.api('block/user', send('POST', { blockUid: x }, reader))).status).toBe(200);
    expect((await list(`videoId=${videoId}`)).videoCommentCount).toBe(12);
    const mine = await list(`videoId=${videoId}&pageSize=5`, reader);
    expect(mine.videoCommentCount).toBe(8);
    const second = await list(`videoId=${videoId}&pageSize=5&page=2&after=${mine.nextCursor}`, reader);
    const all = [...mine.videoCommentList, ...second.videoCommentList];
    expect(all).toHaveLength(8);
    expect(all.every((t) => t.uid === w)).toBe(true);
    expect(second.nextCursor).toBeNull();
  });

  it('refuses a cursor that is malformed, of the other order, or given both ways', async () => {
    const videoId = await insertVideo(server, owner, 60_000);
    for (const query of [
      `videoId=${videoId}&page=2&after=new.x`,
      `videoId=${videoId}&page=2&sort=hot&after=new.3`,
      `videoId=${videoId}&page=2&after=new.3&before=new.9`,
      `videoId=${videoId}&page=2&sort=new&before=hot.1.2`,
    ]) {
      const res = await server.api(`video/comment?${query}`, { headers: { 'X-Client-Language': 'en' } });
      expect(res.status, query).toBe(400);
      expect((await res.json()).code).toBe('VALIDATION_FAILED');
    }
  });
});
