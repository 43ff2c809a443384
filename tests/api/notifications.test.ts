/**
 * Notifications (issue 27): the kinds whose events exist (a comment on one's upload, a follower,
 * a review's outcome) through their calls; the others (reply, mention, like, reports) through
 * the service's one entry point, as their calls will use it. The list and its cursor, tabs,
 * read/unread, preferences, the like aggregation, blocks, and another member's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { SseClient } from './sse-client.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('notifications on %s', (backend) => {
  let server: TestServer;
  let alice = '';
  let bob = '';
  let carol = '';
  let admin = '';
  const call = async (method: string, path: string, cookie?: string, body?: unknown, locale = 'en') => {
    const res = await server.api(path, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        'Content-Type': 'application/json',
        'X-Client-Language': locale,
        ...(cookie ? { Cookie: cookie } : {}),
      },
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
  const list = async (cookie: string, query = '', locale = 'en') => {
    const answer = await call('GET', `notification/list${query}`, cookie, undefined, locale);
    expect(answer.status).toBe(200);
    return answer.body;
  };
  const unread = async (cookie: string) =>
    (await call('GET', 'notification/unreadCount', cookie)).body.unreadCount as number;
  const markAllRead = (cookie: string) => call('POST', 'notification/read', cookie, { all: true });
  /** A member who only acts through the service (no login needed): a uid. */
  const someone = async (username: string) =>
    (
      await server.db
        .insertInto('users')
        .values({ username, email: `${username}@example.com`, password_hash: null })
        .returning('uid')
        .executeTakeFirstOrThrow()
    ).uid;
  const notify = (input: Parameters<TestServer['services']['notifications']['notify']>[0]) =>
    server.services.notifications.notify(input);

  beforeAll(async () => {
    server = await startTestServer(backend, { env: { NOTIFICATION_DIGEST_CHECK_MS: '0' } });
    [alice, bob, carol, admin] = await Promise.all([
      member(server, 'alice'),
      member(server, 'bob'),
      member(server, 'carol'),
      member(server, 'admin', ['administrator']),
    ]);
  }, 600_000);
  afterAll(() => server?.close());

  it('needs a login for every call', async () => {
    for (const path of ['notification/list', 'notification/unreadCount', 'notification/settings'])
      expect((await call('GET', path)).status).toBe(401);
    expect((await call('POST', 'notification/read', undefined, { all: true })).status).toBe(401);
  });

  it('tells an uploader of a comment on their upload, in the reader’s language, and never of their own', async () => {
    const videoId = await insertVideo(server, alice, 10_000);
    expect((await call('POST', 'video/comment/emit', bob, { videoId, text: '<p>Great <b>work</b></p>' })).status).toBe(
      200,
    );
    expect((await call('POST', 'video/comment/emit', alice, { videoId, text: 'thanks' })).status).toBe(200);
    const page = await list(alice);
    expect(page.unreadCount).toBe(1);
    expect(page.notifications).toHaveLength(1);
    const [n] = page.notifications;
    expect(n).toMatchObject({
      kind: 'comment',
      isRead: false,
      actorCount: 1,
      target: { type: 'video', id: videoId },
      excerpt: 'Great work',
    });
    expect(n.actors[0]).toMatchObject({ uid: uidOf(bob), username: 'bob' });
    expect(n.text).toBe(`bob commented on “${n.target.title}”`);
    const inChinese = await list(alice, '', 'zhs');
    expect(inChinese.notifications[0].text).toBe(`bob评论了《${n.target.title}》`);
    expect(await unread(bob)).toBe(0);
    await markAllRead(alice);
  });

  it('tells of a new follower once, and of a review’s outcome with the reason', async () => {
    await call('POST', 'feed/following', carol, { followingUid: uidOf(alice) });
    await call('POST', 'feed/following', carol, { followingUid: uidOf(alice) });
    const pending = await insertVideo(server, alice, 10_000, 'pending');
    const refused = await insertVideo(server, alice, 10_000, 'pending');
    expect((await call('POST', 'video/pending/approved', admin, { videoId: pending })).status).toBe(200);
    expect(
      (await call('POST', 'video/pending/rejected', admin, { videoId: refused, reason: 'SPAM', note: 'Please no ads' }))
        .status,
    ).toBe(200);
    const page = await list(alice, '?kind=system');
    expect(page.notifications.map((n: { kind: string }) => n.kind)).toEqual([
      'uploadRejected',
      'uploadApproved',
      'follow',
    ]);
    const [rejected, approved, follow] = page.notifications;
    expect(rejected.text).toBe(`“${rejected.target.title}” was rejected: Spam or advertising`);
    expect(rejected.excerpt).toBe('Please no ads');
    expect(rejected.actors).toEqual([]);
    expect(approved.target).toMatchObject({ type: 'video', id: pending });
    expect(follow).toMatchObject({ text: 'carol started following you', target: { type: 'user', id: uidOf(carol) } });
    expect(page.unreadCount).toBe(3);
    expect(
      (await list(alice, '?kind=reply')).notifications.every(
        (n: { kind: string }) => n.kind === 'comment' || n.kind === 'reply',
      ),
    ).toBe(true);
  });

  it('pages by cursor without repeats, and filters by tab', async () => {
    await markAllRead(bob);
    for (let i = 0; i < 7; i++)
      await notify({
        kind: 'mention',
        recipientUid: uidOf(bob),
        actorUid: uidOf(carol),
        target: { type: 'video', id: 1000 + i, title: `clip ${i}` },
      });
    await notify({
      kind: 'reply',
      recipientUid: uidOf(bob),
      actorUid: uidOf(carol),
      target: { type: 'video', id: 2000, title: 'x' },
      excerpt: '@bob yes',
    });
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(bob, `?kind=mention&pageSize=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.notifications.length).toBeLessThanOrEqual(3);
      seen.push(...page.notifications.map((n: { id: number }) => n.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect([...seen].sort((a, b) => b - a)).toEqual(seen);
    expect((await list(bob, '?kind=reply')).notifications.map((n: { kind: string }) => n.kind)).toEqual(['reply']);
    expect((await call('GET', 'notification/list?cursor=bm90LWEtY3Vyc29y', bob)).status).toBe(400);
    expect((await call('GET', 'notification/list?kind=nonsense', bob)).status).toBe(400);
  });

  it('marks read by id (one’s own only) or all, and never shows or marks another member’s', async () => {
    const page = await list(bob, '?kind=mention&pageSize=2');
    const [first, second] = page.notifications.map((n: { id: number }) => n.id);
    const before = await unread(bob);
    // Alice cannot mark Bob's, nor see them.
    expect((await call('POST', 'notification/read', alice, { ids: [first, second] })).status).toBe(200);
    expect(await unread(bob)).toBe(before);
    expect((await list(alice)).notifications.some((n: { id: number }) => n.id === first || n.id === second)).toBe(
      false,
    );
    const marked = await call('POST', 'notification/read', bob, { ids: [first] });
    expect(marked.body.unreadCount).toBe(before - 1);
    expect(
      (await list(bob, '?kind=mention&pageSize=2')).notifications.map((n: { isRead: boolean }) => n.isRead),
    ).toEqual([true, false]);
    expect((await call('POST', 'notification/read', bob, { ids: [] })).status).toBe(400);
    expect((await call('POST', 'notification/read', bob, { all: false })).status).toBe(400);
    expect((await markAllRead(bob)).body.unreadCount).toBe(0);
  });

  it('gathers one item’s likes of a day in one entry: “A, B and N others”', async () => {
    const likers = [uidOf(carol), uidOf(alice), uidOf(admin)];
    for (let i = 0; i < 9; i++) likers.push(await someone(`liker${i}`));
    const target = { type: 'video' as const, id: 777, title: 'Hot clip' };
    const ids = new Set<number | null>();
    for (const liker of likers)
      ids.add(await notify({ kind: 'like', recipientUid: uidOf(bob), actorUid: liker, target }));
    // The same member liking again (after taking it back) is not counted twice.
    ids.add(await notify({ kind: 'like', recipientUid: uidOf(bob), actorUid: likers[11], target }));
    expect(ids.size).toBe(1);
    const page = await list(bob, '?kind=like');
    expect(page.notifications).toHaveLength(1);
    const [n] = page.notifications;
    expect(n.actorCount).toBe(12);
    expect(n.actors.map((a: { username: string }) => a.username)).toEqual(['liker8', 'liker7', 'liker6']);
    expect(n.text).toBe('liker8, liker7 and 10 others liked “Hot clip”');
    // Another item is another entry; a read entry comes back unread with the next like.
    await call('POST', 'notification/read', bob, { ids: [n.id] });
    await notify({
      kind: 'like',
      recipientUid: uidOf(bob),
      actorUid: uidOf(carol),
      target: { type: 'video', id: 778, title: 'Other' },
    });
    await notify({ kind: 'like', recipientUid: uidOf(bob), actorUid: await someone('late'), target });
    const again = await list(bob, '?kind=like');
    expect(again.notifications).toHaveLength(2);
    expect(again.notifications[0]).toMatchObject({ id: n.id, isRead: false, actorCount: 13 });
    const two = await notify({ kind: 'like', recipientUid: uidOf(carol), actorUid: uidOf(alice), target });
    await notify({ kind: 'like', recipientUid: uidOf(carol), actorUid: uidOf(bob), target });
    expect((await list(carol, '?kind=like')).notifications.find((x: { id: number }) => x.id === two)!.text).toBe(
      'bob and alice liked “Hot clip”',
    );
  });

  it('never notifies oneself, nor across a block either way', async () => {
    const [dave, erin] = await Promise.all([member(server, 'dave'), member(server, 'erin')]);
    expect(
      await notify({ kind: 'mention', recipientUid: uidOf(dave), actorUid: uidOf(dave), target: null }),
    ).toBeNull();
    expect((await call('POST', 'block/user', dave, { blockUid: uidOf(erin) })).status).toBe(200);
    expect(
      await notify({
        kind: 'reply',
        recipientUid: uidOf(dave),
        actorUid: uidOf(erin),
        target: { type: 'video', id: 1, title: 't' },
      }),
    ).toBeNull();
    expect(
      await notify({
        kind: 'mention',
        recipientUid: uidOf(erin),
        actorUid: uidOf(dave),
        target: { type: 'video', id: 1, title: 't' },
      }),
    ).toBeNull();
    // A comment on the blocker's upload cannot even be written; the follow is refused too.
    expect((await call('POST', 'feed/following', erin, { followingUid: uidOf(dave) })).status).toBe(403);
    expect(await unread(dave)).toBe(0);
    expect(await unread(erin)).toBe(0);
  });

  it('keeps per-kind settings: off stores nothing; staff-only kinds reach staff only', async () => {
    const settings = await call('GET', 'notification/settings', carol);
    expect(settings.body.settings).toMatchObject({ reply: 'site', like: 'site', follow: 'site', reportNew: 'site' });
    const changed = await call('POST', 'notification/settings', carol, { kind: 'mention', channel: 'off' });
    expect(changed.body.settings.mention).toBe('off');
    expect((await call('POST', 'notification/settings', carol, { kind: 'mention', channel: 'loud' })).status).toBe(400);
    expect((await call('POST', 'notification/settings', carol, { kind: 'nothing', channel: 'off' })).status).toBe(400);
    expect(
      await notify({
        kind: 'mention',
        recipientUid: uidOf(carol),
        actorUid: uidOf(bob),
        target: { type: 'video', id: 5, title: 'm' },
      }),
    ).toBeNull();
    expect(
      await notify({
        kind: 'reportNew',
        recipientUid: uidOf(carol),
        actorUid: uidOf(bob),
        target: { type: 'video', id: 5, title: 'm' },
      }),
    ).toBeNull();
    expect(
      await server.services.notifications.notifyStaff({
        kind: 'reportNew',
        actorUid: uidOf(bob),
        target: { type: 'video', id: 5, title: 'm' },
      }),
    ).toBe(1);
    expect((await list(admin, '?kind=system')).notifications[0]).toMatchObject({
      kind: 'reportNew',
      text: 'bob reported “m”',
    });
    await notify({
      kind: 'reportResolved',
      recipientUid: uidOf(bob),
      actorUid: null,
      target: { type: 'video', id: 5, title: 'm' },
    });
    expect((await list(bob, '?kind=system')).notifications[0].text).toBe('Your report about “m” has been dealt with');
  });

  it('counts unread live on the member’s stream, and only theirs', async () => {
    const frank = await member(server, 'frank');
    const stream = await SseClient.open(`${server.baseUrl}/api/notification/live`, { headers: { Cookie: frank } });
    const counts = () =>
      stream.events.filter((e) => e.event === 'unread').map((e) => JSON.parse(e.data).unreadCount as number);
    try {
      expect(stream.status).toBe(200);
      await stream.until(() => counts().length === 1);
      expect(counts()).toEqual([0]);
      const started = Date.now();
      await notify({
        kind: 'mention',
        recipientUid: uidOf(frank),
        actorUid: uidOf(bob),
        target: { type: 'video', id: 9, title: 'live' },
      });
      await stream.until(() => counts().length === 2);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(counts()).toEqual([0, 1]);
      // Someone else's notification says nothing on this stream.
      await notify({ kind: 'mention', recipientUid: uidOf(bob), actorUid: uidOf(carol), target: null });
      await markAllRead(frank);
      await stream.until(() => counts().length === 3);
      expect(counts()).toEqual([0, 1, 0]);
    } finally {
      stream.close();
    }
    expect((await call('GET', 'notification/live')).status).toBe(401);
  });
});
