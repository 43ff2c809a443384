/** Replies, mentions, pins, uploader deletion and likes (issue 27), on videos, tracks and photo posts. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KyselyPlugin } from 'kysely';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { member, insertAudio, insertPhoto, insertVideo } from './media-helpers.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createCommentService } from '../../server/services/comments.ts';
import { createRateLimitService } from '../../server/services/rate-limit.ts';
import type {
  ConversationEvent,
  ConversationEventKind,
  ConversationEvents,
} from '../../server/services/conversation-events.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const send = (method: string, body: unknown, cookie?: string): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
});
type Comment = {
  id: number;
  uid: number;
  text: string;
  parentId: number | null;
  isDeleted: boolean;
  isPinned: boolean;
  commentRoute: string;
  mentions: { uid: number; username: string }[];
  upvoteCount: number;
};
type Thread = Comment & { replyCount: number; replies: Comment[] };

describe.each(BACKENDS)('replies, mentions and likes on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let carol = '';
  let dave = '';
  const events: Array<{
    kind: string;
    recipientUid: number;
    actorUid: number;
    commentId?: number;
    mediaType: string;
    mediaId: number;
  }> = [];
  beforeAll(async () => {
    // The events the site tells about, as the composition root hands them on (after notifications).
    const record = (kind: ConversationEventKind) => (event: ConversationEvent) => {
      events.push({ kind, ...event });
    };
    server = await startTestServer(backend, {
      conversationEvents: {
        onComment: record('comment'),
        onReply: record('reply'),
        onMention: record('mention'),
        onLike: record('like'),
      },
    });
    [alice, bob, carol, dave] = [
      await member(server, 'Alice'),
      await member(server, 'Bob'),
      await member(server, 'Carol Ann'),
      await member(server, 'Dave'),
    ];
    // A fresh server and four members: slow on a busy machine.
  }, 180_000);
  afterAll(() => server?.close());

  const emit = async (cookie: string, body: Record<string, unknown>) => {
    const res = await server.api('video/comment/emit', send('POST', body, cookie));
    const answer = await res.json();
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(answer)}`);
    return answer.comment as Comment;
  };
  const list = async (query: string, cookie?: string) => {
    const res = await server.api(`video/comment?${query}`, cookie ? { headers: { Cookie: cookie } } : {});
    expect(res.status).toBe(200);
    return (await res.json()) as { videoCommentCount: number; hiddenCommentCount: number; videoCommentList: Thread[] };
  };
  const replies = async (query: string, cookie?: string) => {
    const res = await server.api(`video/comment/replies?${query}`, cookie ? { headers: { Cookie: cookie } } : {});
    return { status: res.status, body: await res.json() };
  };
  /** Events told for one comment or like (a like's after its answer: wait for them). */
  const eventsOf = async (match: (e: (typeof events)[number]) => boolean, count: number) => {
    for (let i = 0; i < 100 && events.filter(match).length < count; i++) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 50));
    return events
      .filter(match)
      .map((e) => `${e.kind}:${e.recipientUid}`)
      .sort();
  };

  it('threads replies under the top-level comment, a reply to a reply starting with "@name", on videos, tracks and photo posts', async () => {
    for (const [mediaType, make] of [
      ['video', () => insertVideo(server, alice, 60_000)],
      ['audio', () => insertAudio(server, alice, 60_000)],
      ['photo', () => insertPhoto(server, alice)],
    ] as const) {
      const videoId = await make();
      const top = await emit(bob, { videoId, mediaType, text: 'first!' });
      const reply = await emit(carol, { videoId, mediaType, text: 'agreed', parentId: top.id });
      expect(reply.parentId).toBe(top.id);
      const nested = await emit(dave, { videoId, mediaType, text: '<p>not me</p>', parentId: reply.id });
      // Attached to the same thread, addressed to the author answered, who is linked.
      expect(nested.parentId).toBe(top.id);
      expect(nested.text).toBe('<p>@Carol Ann not me</p>');
      expect(nested.mentions).toEqual([{ uid: uidOf(carol), username: 'Carol Ann' }]);
      const page = await list(`videoId=${videoId}&mediaType=${mediaType}`);
      expect(page.videoCommentCount).toBe(1);
      expect(page.videoCommentList).toHaveLength(1);
      expect(page.videoCommentList[0]).toMatchObject({ id: top.id, replyCount: 2, isDeleted: false });
      expect(page.videoCommentList[0].replies.map((r) => r.id)).toEqual([reply.id, nested.id]);
      const thread = await replies(`videoId=${videoId}&mediaType=${mediaType}&parentId=${top.id}`);
      expect(thread.status).toBe(200);
      expect(thread.body.replyCount).toBe(2);
      expect(thread.body.replies.map((r: Comment) => r.id)).toEqual([reply.id, nested.id]);
      // A reply is not a thread of its own; a comment of another item is not found here.
      expect((await replies(`videoId=${videoId}&mediaType=${mediaType}&parentId=${reply.id}`)).status).toBe(404);
      const elsewhere = await server.api(
        'video/comment/emit',
        send('POST', { videoId: await insertVideo(server, alice, 60_000), text: 'x', parentId: top.id }, bob),
      );
      expect(elsewhere.status).toBe(404);
      // The uploader heard of the comment, Bob of Carol's reply, Carol of Dave's (not again as a mention).
      expect(await eventsOf((e) => e.mediaType === mediaType && e.mediaId === videoId, 3)).toEqual([
        `comment:${uidOf(alice)}`,
        `reply:${uidOf(bob)}`,
        `reply:${uidOf(carol)}`,
      ]);
    }
  });

  it('pages a long thread oldest first and shows only the first 3 replies under the comment', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const top = await emit(bob, { videoId, text: 'long thread' });
    const uid = uidOf(carol);
    await server.db
      .insertInto('comments')
      .values(
        Array.from({ length: 25 }, (_, i) => ({
          video_id: videoId,
          target_type: 'video' as const,
          floor: 100 + i,
          uid,
          text: `reply ${i}`,
          parent_id: top.id,
          mentions: '[]',
        })),
      )
      .execute();
    const [thread] = (await list(`videoId=${videoId}`)).videoCommentList;
    expect(thread.replyCount).toBe(25);
    expect(thread.replies.map((r) => r.text)).toEqual(['reply 0', 'reply 1', 'reply 2']);
    const second = await replies(`videoId=${videoId}&parentId=${top.id}&page=2&pageSize=10`);
    expect(second.body.replies.map((r: Comment) => r.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `reply ${10 + i}`),
    );
    expect((await replies(`videoId=${videoId}&parentId=${top.id}&pageSize=51`)).status).toBe(400);
    expect((await replies(`videoId=${videoId}&parentId=abc`)).body.code).toBe('VALIDATION_FAILED');
  });

  it('keeps the replies of a deleted comment under a "deleted" head, and drops a deleted comment without replies', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const top = await emit(bob, { videoId, text: 'soon gone' });
    const lonely = await emit(bob, { videoId, text: 'gone alone' });
    const reply = await emit(carol, { videoId, text: 'still here', parentId: top.id });
    for (const route of [top.commentRoute, lonely.commentRoute]) {
      expect(
        (await server.api('video/comment/deleteSelfComment', send('DELETE', { videoId, commentRoute: route }, bob)))
          .status,
      ).toBe(200);
    }
    const page = await list(`videoId=${videoId}`);
    expect(page.videoCommentCount).toBe(1);
    expect(page.videoCommentList[0]).toMatchObject({ id: top.id, isDeleted: true, text: '', uid: 0, replyCount: 1 });
    expect(page.videoCommentList[0].replies.map((r) => r.id)).toEqual([reply.id]);
    // Votes apply to replies as to comments; a deleted comment takes no new reply.
    const vote = await server.api('video/comment/upvote', send('POST', { videoId, id: reply.id }, dave));
    expect((await vote.json()).upvoteCount).toBe(1);
    expect(
      (await server.api('video/comment/emit', send('POST', { videoId, text: 'late', parentId: top.id }, dave))).status,
    ).toBe(404);
    // The thread's other replies can still be answered.
    expect((await emit(dave, { videoId, text: 'later', parentId: reply.id })).parentId).toBe(top.id);
    // Once its last reply goes, the deleted head goes too.
    for (const r of (await replies(`videoId=${videoId}&parentId=${top.id}`)).body.replies as Comment[]) {
      await server.db.updateTable('comments').set({ deleted_at: new Date() }).where('id', '=', r.id).execute();
    }
    expect((await list(`videoId=${videoId}`)).videoCommentList).toEqual([]);
  });

  it('applies block lists to replies, and never mentions or tells across a block', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const top = await emit(bob, { videoId, text: 'thread' });
    await emit(carol, { videoId, text: 'from Carol', parentId: top.id });
    const fromDave = await emit(dave, { videoId, text: 'from Dave with spoiler', parentId: top.id });
    // Bob blocks Carol and a keyword: her reply leaves his view, the keyword's reply is hidden and counted.
    expect((await server.api('block/user', send('POST', { blockUid: uidOf(carol) }, bob))).status).toBe(200);
    expect((await server.api('block/keyword', send('POST', { blockKeyword: 'spoiler' }, bob))).status).toBe(200);
    const seen = await list(`videoId=${videoId}`, bob);
    expect(seen.videoCommentList[0].replyCount).toBe(1);
    expect(seen.videoCommentList[0].replies).toEqual([]);
    expect(seen.hiddenCommentCount).toBe(1);
    const thread = await replies(`videoId=${videoId}&parentId=${top.id}`, bob);
    expect([thread.body.replyCount, thread.body.hiddenCommentCount, thread.body.replies.length]).toEqual([1, 1, 0]);
    // Others still see both.
    expect((await list(`videoId=${videoId}`, dave)).videoCommentList[0].replies.map((r) => r.id)).toContain(
      fromDave.id,
    );

    // Carol mentions Bob (who blocked her) and Dave: only Dave is linked and told; Bob is not told of her reply either.
    const mention = await emit(carol, { videoId, text: 'hey @Bob and @dave', parentId: top.id });
    expect(mention.mentions).toEqual([{ uid: uidOf(dave), username: 'Dave' }]);
    expect(await eventsOf((e) => e.commentId === mention.id, 1)).toEqual([`mention:${uidOf(dave)}`]);
    // Nor when the writer blocked the one named.
    expect((await server.api('block/user', send('POST', { blockUid: uidOf(alice) }, dave))).status).toBe(200);
    const fromBlocker = await emit(dave, { videoId, text: '@Alice look', parentId: top.id });
    expect(fromBlocker.mentions).toEqual([]);
    expect(await eventsOf((e) => e.commentId === fromBlocker.id, 1)).toEqual([`reply:${uidOf(bob)}`]);
    // An unknown name stays text; a name with a space is matched whole; the mention survives the sanitiser as text.
    const plain = await emit(alice, { videoId, text: '<b>@nobody</b> and <i>@Carol Ann</i> <script>@Bob</script>' });
    expect(plain.text).toBe('<b>@nobody</b> and <i>@Carol Ann</i>');
    expect(plain.mentions).toEqual([{ uid: uidOf(carol), username: 'Carol Ann' }]);
  });

  it('offers people one follows and people in the thread after "@", never across a block', async () => {
    const erin = await member(server, 'Erin');
    const frank = await member(server, 'Frank');
    const videoId = await insertVideo(server, alice, 60_000);
    const top = await emit(frank, { videoId, text: 'thread' });
    expect((await server.api('feed/following', send('POST', { followingUid: uidOf(bob) }, erin))).status).toBe(200);
    const offered = async (query: string, cookie = erin) => {
      const res = await server.api(`video/comment/mentionCandidates?videoId=${videoId}&${query}`, {
        headers: { Cookie: cookie },
      });
      expect(res.status).toBe(200);
      return ((await res.json()).users as { username: string }[]).map((u) => u.username);
    };
    expect(await offered(`parentId=${top.id}`)).toEqual(['Bob', 'Frank']);
    expect(await offered(`parentId=${top.id}&prefix=fr`)).toEqual(['Frank']);
    expect((await server.api('block/user', send('POST', { blockUid: uidOf(erin) }, frank))).status).toBe(200);
    expect(await offered(`parentId=${top.id}`)).toEqual(['Bob']);
    expect((await server.api(`video/comment/mentionCandidates?videoId=${videoId}`)).status).toBe(401);
  });

  it('sorts by hot or new, lets the uploader pin one comment and delete comments under their upload', async () => {
    // Members of their own, below the comment rate limit the other tests used up.
    const [alice, bob, carol, dave] = await Promise.all(
      ['Gina', 'Hugo', 'Ivy', 'Jack'].map((name) => member(server, name)),
    );
    const videoId = await insertVideo(server, alice, 60_000);
    const older = await emit(bob, { videoId, text: 'older but loved' });
    const newer = await emit(carol, { videoId, text: 'newer' });
    await server.api('video/comment/upvote', send('POST', { videoId, id: older.id }, dave));
    const ids = async (sort: string) =>
      (await list(`videoId=${videoId}&sort=${sort}`)).videoCommentList.map((c) => c.id);
    expect(await ids('new')).toEqual([newer.id, older.id]);
    expect(await ids('hot')).toEqual([older.id, newer.id]);
    expect((await server.api(`video/comment?videoId=${videoId}&sort=best`)).status).toBe(400);

    const pin = (id: number, pinned: boolean, cookie = alice) =>
      server.api('video/comment/pin', send('POST', { videoId, id, pinned }, cookie));
    expect((await pin(newer.id, true, bob)).status).toBe(403);
    expect((await pin(newer.id, true)).status).toBe(200);
    expect(await ids('hot')).toEqual([newer.id, older.id]);
    expect((await list(`videoId=${videoId}`)).videoCommentList[0].isPinned).toBe(true);
    // One pin: pinning another replaces it; a reply cannot be pinned; unpinning restores the order.
    expect((await pin(older.id, true)).status).toBe(200);
    expect((await list(`videoId=${videoId}`)).videoCommentList.filter((c) => c.isPinned).map((c) => c.id)).toEqual([
      older.id,
    ]);
    const reply = await emit(dave, { videoId, text: 'a reply', parentId: newer.id });
    expect((await pin(reply.id, true)).status).toBe(404);
    expect((await pin(older.id, false)).status).toBe(200);
    expect(await ids('new')).toEqual([newer.id, older.id]);

    const uploaderDelete = (route: string, cookie: string) =>
      server.api('video/comment/uploaderDeleteComment', send('DELETE', { videoId, commentRoute: route }, cookie));
    expect((await uploaderDelete(newer.commentRoute, bob)).status).toBe(403);
    expect((await uploaderDelete(newer.commentRoute, undefined as unknown as string)).status).toBe(401);
    expect((await uploaderDelete(reply.commentRoute, alice)).status).toBe(200);
    expect((await uploaderDelete(older.commentRoute, alice)).status).toBe(200);
    expect((await list(`videoId=${videoId}`)).videoCommentList.map((c) => c.id)).toEqual([newer.id]);
    // On another member's upload, Alice is not the uploader.
    const bobsVideo = await insertVideo(server, bob, 60_000);
    const onBobs = await emit(carol, { videoId: bobsVideo, text: 'hello Bob' });
    expect(
      (
        await server.api(
          'video/comment/uploaderDeleteComment',
          send('DELETE', { videoId: bobsVideo, commentRoute: onBobs.commentRoute }, alice),
        )
      ).status,
    ).toBe(403);
  });

  it('reads a page of 20 threads of 3 replies in as many queries as a page of one thread', async () => {
    const videoId = await insertVideo(server, alice, 60_000);
    const uid = uidOf(bob);
    let floor = 0;
    const thread = async () => {
      const [top] = await server.db
        .insertInto('comments')
        .values({ video_id: videoId, target_type: 'video', floor: ++floor, uid, text: 'head', mentions: '[]' })
        .returning('id')
        .execute();
      await server.db
        .insertInto('comments')
        .values(
          [1, 2, 3].map(() => ({
            video_id: videoId,
            target_type: 'video' as const,
            floor: ++floor,
            uid,
            text: 'r',
            parent_id: top.id,
            mentions: '[]',
          })),
        )
        .execute();
    };
    let queries = 0;
    // Counted as results come back: once per query sent (a subquery's builder is transformed too, but not sent).
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        queries++;
        return args.result;
      },
    };
    const repositories = createRepositories(server.db.withPlugin(counting));
    const comments = createCommentService(repositories, {} as ConversationEvents, createRateLimitService(repositories));
    const queriesFor = async () => {
      queries = 0;
      const page = await comments.list({ type: 'video', id: videoId }, uidOf(carol), {
        page: 1,
        pageSize: 20,
        sort: 'hot',
      });
      return {
        queries,
        threads: page.videoCommentList.length,
        replies: page.videoCommentList.reduce((n, t) => n + t.replies.length, 0),
      };
    };
    await thread();
    const one = await queriesFor();
    for (let i = 0; i < 19; i++) await thread();
    const twenty = await queriesFor();
    expect([one.threads, one.replies, twenty.threads, twenty.replies]).toEqual([1, 3, 20, 60]);
    expect(twenty.queries).toBe(one.queries);
    // The page, its count, the viewer's block lists, and the replies of every thread at once.
    expect(twenty.queries).toBeLessThanOrEqual(4);
  });

  it('counts likes idempotently on videos, tracks and photo posts, and tells the uploader once', async () => {
    for (const [mediaType, make, read] of [
      ['video', () => insertVideo(server, alice, 60_000), (id: number) => `video?videoId=${id}`],
      ['audio', () => insertAudio(server, alice, 60_000), (id: number) => `audio?audioId=${id}`],
      ['photo', () => insertPhoto(server, alice), (id: number) => `photo?photoId=${id}`],
    ] as const) {
      const videoId = await make();
      const like = async (cookie: string | undefined, method = 'POST') => {
        const res = await server.api(
          method === 'POST' ? 'video/like' : 'video/like/cancel',
          send(method, { videoId, mediaType }, cookie),
        );
        return { status: res.status, body: await res.json() };
      };
      expect((await like(bob)).body).toEqual({ success: true, likeCount: 1, isLiked: true });
      expect((await like(bob)).body).toEqual({ success: true, likeCount: 1, isLiked: true });
      expect((await like(carol)).body.likeCount).toBe(2);
      expect(await eventsOf((e) => e.kind === 'like' && e.mediaType === mediaType && e.mediaId === videoId, 2)).toEqual(
        [`like:${uidOf(alice)}`, `like:${uidOf(alice)}`],
      );
      // The item's answer: the count for a guest, and whether they like it for a member.
      const guest = await (await server.api(read(videoId))).json();
      expect([guest.likeCount, guest.isLiked]).toEqual([2, undefined]);
      const asBob = await (await server.api(read(videoId), { headers: { Cookie: bob } })).json();
      expect([asBob.likeCount, asBob.isLiked]).toEqual([2, true]);
      expect((await like(bob, 'DELETE')).body).toEqual({ success: true, likeCount: 1, isLiked: false });
      expect((await like(bob, 'DELETE')).body).toEqual({ success: true, likeCount: 1, isLiked: false });
      expect((await (await server.api(read(videoId), { headers: { Cookie: bob } })).json()).isLiked).toBe(false);
      expect((await like(undefined)).status).toBe(401);
    }
    // Not on what one may not see, nor on an uploader who blocked the member; concurrent likes all count.
    const pending = await insertVideo(server, alice, 60_000, 'pending');
    expect((await server.api('video/like', send('POST', { videoId: pending }, bob))).status).toBe(404);
    const videoId = await insertVideo(server, alice, 60_000);
    const fans = await Promise.all(Array.from({ length: 12 }, (_, i) => member(server, `Fan${i}`)));
    const answers = await Promise.all(
      fans.flatMap((fan) => [fan, fan].map((c) => server.api('video/like', send('POST', { videoId }, c)))),
    );
    expect(answers.map((a) => a.status).every((s) => s === 200)).toBe(true);
    expect((await (await server.api(`video?videoId=${videoId}`)).json()).likeCount).toBe(12);
    expect((await server.api('block/user', send('POST', { blockUid: uidOf(carol) }, alice))).status).toBe(200);
    const refused = await server.api('video/like', send('POST', { videoId }, carol));
    expect([refused.status, (await refused.json()).code]).toEqual([403, 'BLOCKED_BY_UPLOADER']);
  });
});
