/**
 * Issue 28: members report videos, tracks, photo posts, comments, danmaku and users; staff
 * resolve reports through the existing services (dismiss, hide, delete, ban) and the reporters
 * are told by mail in their language; every staff action lands in the moderation log, which only
 * staff read and nothing in the API changes; related videos never show the video itself, what is
 * not approved, nor uploaders the viewer blocked or hid.
 */
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertPhoto, insertVideo, member } from './media-helpers.ts';
import { ROUTES } from '../../src/lib/api/routes/index.ts';
import { LIMITS } from '../../src/lib/api/limits.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

/** The text of a mail file written by nodemailer (quoted-printable or base64 body). */
function mailText(eml: string): string {
  const [head, ...rest] = eml.split(/\r?\n\r?\n/);
  const body = rest.join('\n\n');
  if (/Content-Transfer-Encoding: base64/i.test(head))
    return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/Content-Transfer-Encoding: quoted-printable/i.test(head)) {
    const bytes = body
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

describe.each(BACKENDS)('reports, moderation log and related videos on %s', (backend) => {
  let server: TestServer;
  let outbox = '';
  let uploader = '';
  let reporter = '';
  let second = '';
  let admin = '';
  let otherAdmin = '';
  const post = (path: string, body: unknown, cookie?: string, locale?: string) =>
    jsonCall(server, path, { method: 'POST', cookie, locale, body });
  const get = (path: string, cookie?: string) => jsonCall(server, path, { cookie });
  const report = (body: Record<string, unknown>, cookie = reporter, locale?: string) =>
    post('report/create', { reason: 'spam', ...body }, cookie, locale);
  const resolve = (reportId: number, action: string, cookie = admin) =>
    post('report/resolve', { reportId, action, note: 'checked' }, cookie);
  const logOf = async (query = '') =>
    (await get(`moderation/log?pageSize=100${query}`, admin)).body.entries as Array<{
      action: string;
      targetType: string;
      targetId: number;
      actor: { uid: number };
      details: Record<string, unknown>;
    }>;

  async function danmakuOn(videoId: number, text: string, cookie: string): Promise<number> {
    const sent = await post('video/danmaku/emit', { videoId, time: 1, text, color: 'ffffff' }, cookie);
    expect(sent.status).toBe(200);
    return (await server.db.selectFrom('danmaku').select('id').where('text', '=', text).executeTakeFirstOrThrow()).id;
  }
  async function commentOn(videoId: number, text: string, cookie: string): Promise<number> {
    expect((await post('video/comment/emit', { videoId, text }, cookie)).status).toBe(200);
    return (
      await server.db.selectFrom('comments').select('id').where('text', 'like', `%${text}%`).executeTakeFirstOrThrow()
    ).id;
  }

  beforeAll(async () => {
    outbox = await mkdtemp(join(tmpdir(), 'kiraboshi-reports-'));
    server = await startTestServer(backend, { env: { OUTBOX_DIR: outbox } });
    uploader = await member(server, 'ReportedUploader');
    reporter = await member(server, 'Reporter');
    second = await member(server, 'SecondReporter');
    admin = await member(server, 'ModAdmin', ['administrator']);
    otherAdmin = await member(server, 'OtherAdmin', ['administrator']);
    await server.db.updateTable('users').set({ interface_language: 'ja' }).where('uid', '=', uidOf(reporter)).execute();
  }, 240_000);
  afterAll(() => server?.close());
  // Each case starts with fresh report counters (the limit has its own case).
  beforeEach(async () => {
    await server.db.deleteFrom('rate_limits').execute();
  });

  it('takes one open report per member and target, of every kind; refuses duplicates, one’s own and what is not there', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const audioId = await insertAudio(server, uploader, 30_000);
    const photoId = await insertPhoto(server, uploader);
    const commentId = await commentOn(videoId, 'a rude comment', uploader);
    const danmakuId = await danmakuOn(videoId, 'a rude danmaku', uploader);
    for (const [targetType, targetId] of [
      ['video', videoId],
      ['audio', audioId],
      ['photo', photoId],
      ['comment', commentId],
      ['danmaku', danmakuId],
      ['user', uidOf(uploader)],
    ] as const) {
      const created = await report(
        { targetType, targetId, reason: 'hateful', text: ' why ', time: targetType === 'video' ? 12.5 : undefined },
        second,
      );
      expect(created, targetType).toMatchObject({ status: 200, body: { success: true, reportId: expect.any(Number) } });
    }
    const again = await report({ targetType: 'danmaku', targetId: danmakuId }, second, 'fr');
    expect(again).toMatchObject({ status: 409, body: { success: false, code: 'ALREADY_REPORTED' } });
    expect(again.body.message).toMatch(/déjà signalé/);
    expect((await report({ targetType: 'video', targetId: videoId }, uploader)).body.code).toBe('CANNOT_REPORT_OWN');
    expect((await report({ targetType: 'video', targetId: 999_999 }, second)).status).toBe(404);
    // A pending video is not there for a member who may not see it.
    const pending = await insertVideo(server, uploader, 60_000, 'pending');
    expect((await report({ targetType: 'video', targetId: pending }, second)).status).toBe(404);
    expect((await report({ targetType: 'video', targetId: videoId, reason: 'boring' }, second)).body.code).toBe(
      'VALIDATION_FAILED',
    );
    expect((await report({ targetType: 'video', targetId: videoId })).status).toBe(200);
    expect((await post('report/create', { targetType: 'video', targetId: videoId, reason: 'spam' })).status).toBe(401);
    const row = await server.db
      .selectFrom('reports')
      .select(['text', 'time', 'target_owner_uid'])
      .where('target_type', '=', 'video')
      .where('target_id', '=', videoId)
      .where('reporter_uid', '=', uidOf(second))
      .executeTakeFirstOrThrow();
    expect({ ...row, target_owner_uid: Number(row.target_owner_uid) }).toEqual({
      text: 'why',
      time: 12.5,
      target_owner_uid: uidOf(uploader),
    });
  });

  it('refuses a report of one’s own track, photo post, comment, reply, danmaku or profile; takes replies and comments under tracks and photo posts', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const audioId = await insertAudio(server, uploader, 30_000);
    const photoId = await insertPhoto(server, uploader);
    const headId = await commentOn(videoId, 'a thread head by the reporter', reporter);
    expect(
      (await post('video/comment/emit', { videoId, text: 'a reply by the reporter', parentId: headId }, reporter))
        .status,
    ).toBe(200);
    const replyId = (
      await server.db
        .selectFrom('comments')
        .select('id')
        .where('text', 'like', '%a reply by the reporter%')
        .executeTakeFirstOrThrow()
    ).id;
    expect(
      (await post('video/comment/emit', { videoId: audioId, mediaType: 'audio', text: 'under a track' }, reporter))
        .status,
    ).toBe(200);
    expect(
      (await post('video/comment/emit', { videoId: photoId, mediaType: 'photo', text: 'under a photo post' }, reporter))
        .status,
    ).toBe(200);
    const onTrack = (
      await server.db
        .selectFrom('comments')
        .select('id')
        .where('text', 'like', '%under a track%')
        .executeTakeFirstOrThrow()
    ).id;
    const onPhoto = (
      await server.db
        .selectFrom('comments')
        .select('id')
        .where('text', 'like', '%under a photo post%')
        .executeTakeFirstOrThrow()
    ).id;
    const danmakuId = await danmakuOn(videoId, 'the reporter’s own danmaku', reporter);
    // The uploader's own media and profile, and the reporter's own comments, reply and danmaku: refused, in the member's language.
    for (const [targetType, targetId, cookie] of [
      ['audio', audioId, uploader],
      ['photo', photoId, uploader],
      ['user', uidOf(uploader), uploader],
      ['comment', headId, reporter],
      ['comment', replyId, reporter],
      ['comment', onTrack, reporter],
      ['comment', onPhoto, reporter],
      ['danmaku', danmakuId, reporter],
    ] as const) {
      const refused = await report({ targetType, targetId }, cookie, 'en');
      expect(refused, `${targetType} ${targetId}`).toMatchObject({
        status: 400,
        body: { success: false, code: 'CANNOT_REPORT_OWN', message: 'You cannot report your own content.' },
      });
    }
    expect(
      await server.db
        .selectFrom('reports')
        .select('report_id')
        .where('target_type', '=', 'comment')
        .where('target_id', 'in', [headId, replyId, onTrack, onPhoto])
        .execute(),
    ).toEqual([]);
    // Someone else may report each of them; the queue shows a reply and a track's comment in their thread.
    for (const targetId of [replyId, onTrack, onPhoto]) {
      expect((await report({ targetType: 'comment', targetId }, second)).status, String(targetId)).toBe(200);
    }
    const queue = (await get('report/list?status=open&targetType=comment&pageSize=100', admin)).body.reports as Array<{
      targetId: number;
      context: { mediaType?: string; mediaId?: number; thread?: Array<{ reported: boolean }> };
    }>;
    expect(queue.find((r) => r.targetId === onTrack)?.context).toMatchObject({ mediaType: 'audio', mediaId: audioId });
    expect(queue.find((r) => r.targetId === onPhoto)?.context).toMatchObject({ mediaType: 'photo', mediaId: photoId });
    expect(queue.find((r) => r.targetId === replyId)?.context.thread?.some((c) => c.reported)).toBe(true);
  });

  it('limits reports per member (429 with retryAfterSeconds)', async () => {
    const busy = await member(server, 'BusyReporter');
    for (let i = 0; i < LIMITS.reportPerUser.limit; i++)
      expect((await report({ targetType: 'user', targetId: 900_000 + i }, busy)).status).toBe(404);
    const refused = await report({ targetType: 'user', targetId: uidOf(uploader) }, busy);
    expect(refused).toMatchObject({
      status: 429,
      body: { success: false, code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) },
    });
  });

  it('lets only staff read the queue and resolve; a member cannot, nor read the log', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const { reportId } = (await report({ targetType: 'video', targetId: videoId })).body;
    for (const cookie of [reporter, uploader]) {
      expect((await get('report/list', cookie)).status).toBe(403);
      expect((await resolve(reportId, 'dismiss', cookie)).status).toBe(403);
      expect((await get('moderation/log', cookie)).status).toBe(403);
    }
    expect((await get('report/list')).status).toBe(401);
    expect((await get('moderation/log')).status).toBe(401);
    const queue = (await get('report/list?status=open&targetType=video&pageSize=100', admin)).body;
    expect(queue.reports.find((r: { reportId: number }) => r.reportId === reportId)).toMatchObject({
      targetType: 'video',
      targetId: videoId,
      reporter: { uid: uidOf(reporter), username: 'Reporter' },
      status: 'open',
      context: { visible: true },
    });
  });

  it('dismisses: the item stays, the report closes, the reporter is told in their language', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const { reportId } = (await report({ targetType: 'video', targetId: videoId })).body;
    const before = (await readdir(outbox)).length;
    expect(await resolve(reportId, 'dismiss')).toMatchObject({
      status: 200,
      body: { success: true, resolvedReports: 1 },
    });
    expect((await get(`video?videoId=${videoId}`)).status).toBe(200);
    expect((await resolve(reportId, 'hide')).body.code).toBe('ALREADY_RESOLVED');
    const files = (await readdir(outbox)).sort();
    expect(files.length).toBe(before + 1);
    const eml = await readFile(join(outbox, files.at(-1)!), 'utf8');
    expect(eml).toMatch(/^To: Reporter@example\.com$/m);
    expect(mailText(eml)).toContain('規約違反ではないと判断したため');
    // The message centre too: staff heard of the report, the reporter of its outcome (in the language the reader asks in).
    const staffNews = (await get('notification/list?kind=system', admin)).body.notifications as Array<{
      kind: string;
      target: { id: number };
    }>;
    expect(staffNews.some((n) => n.kind === 'reportNew' && n.target.id === reportId)).toBe(true);
    const told = (await get('notification/list?kind=system', reporter)).body.notifications as Array<{
      kind: string;
      text: string;
      target: { id: number };
    }>;
    expect(told.find((n) => n.kind === 'reportResolved' && n.target.id === reportId)?.text).toMatch(
      /^Your report about “.+” has been dealt with$/,
    );
    // Once resolved, the same member may report it again.
    expect((await report({ targetType: 'video', targetId: videoId })).status).toBe(200);
  });

  it('hides a video (back to review) and closes every open report of it at once', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const first = (await report({ targetType: 'video', targetId: videoId })).body.reportId;
    await report({ targetType: 'video', targetId: videoId, reason: 'violent' }, second);
    expect((await resolve(first, 'hide')).body.resolvedReports).toBe(2);
    expect((await get(`video?videoId=${videoId}`)).status).toBe(404);
    expect(
      (await server.db.selectFrom('videos').select('status').where('video_id', '=', videoId).executeTakeFirstOrThrow())
        .status,
    ).toBe('pending');
    const listed = (await get('report/list?status=resolved&targetType=video&pageSize=100', admin)).body.reports.filter(
      (r: { targetId: number }) => r.targetId === videoId,
    );
    expect(listed.map((r: { action: string }) => r.action)).toEqual(['hide', 'hide']);
    expect(listed[0].context.visible).toBe(false);
  });

  it('hides and deletes danmaku: gone for viewers, shown to staff with its moment', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const hiddenId = await danmakuOn(videoId, 'hide me please', uploader);
    const deletedId = await danmakuOn(videoId, 'delete me please', second);
    const listTexts = async () =>
      ((await get(`video/danmaku?videoId=${videoId}`)).body.danmaku as Array<{ text: string }>).map((d) => d.text);
    expect(await listTexts()).toEqual(expect.arrayContaining(['hide me please', 'delete me please']));
    const hideReport = (await report({ targetType: 'danmaku', targetId: hiddenId })).body.reportId;
    const queued = (await get('report/list?targetType=danmaku&pageSize=100', admin)).body.reports.find(
      (r: { reportId: number }) => r.reportId === hideReport,
    );
    expect(queued.context).toMatchObject({
      visible: true,
      text: 'hide me please',
      time: 1,
      mediaType: 'video',
      mediaId: videoId,
    });
    expect((await resolve(hideReport, 'hide')).status).toBe(200);
    expect(await listTexts()).not.toContain('hide me please');
    expect(
      (await server.db.selectFrom('danmaku').select('hidden_at').where('id', '=', hiddenId).executeTakeFirstOrThrow())
        .hidden_at,
    ).not.toBeNull();
    const deleteReport = (await report({ targetType: 'danmaku', targetId: deletedId })).body.reportId;
    expect((await resolve(deleteReport, 'delete')).status).toBe(200);
    expect(await listTexts()).not.toContain('delete me please');
    expect(
      await server.db.selectFrom('danmaku').select('id').where('id', '=', deletedId).executeTakeFirst(),
    ).toBeUndefined();
    // A hidden danmaku cannot be reported again.
    expect((await report({ targetType: 'danmaku', targetId: hiddenId }, second)).status).toBe(404);
  });

  it('deletes a comment, shown to staff with its thread', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    await commentOn(videoId, 'first floor', second);
    const commentId = await commentOn(videoId, 'the bad floor', uploader);
    await commentOn(videoId, 'third floor', second);
    const reportId = (await report({ targetType: 'comment', targetId: commentId })).body.reportId;
    const queued = (await get('report/list?targetType=comment&pageSize=100', admin)).body.reports.find(
      (r: { reportId: number }) => r.reportId === reportId,
    );
    expect(queued.context.thread.map((c: { floor: number; reported: boolean }) => [c.floor, c.reported])).toEqual([
      [1, false],
      [2, true],
      [3, false],
    ]);
    expect((await resolve(reportId, 'delete')).status).toBe(200);
    const texts = ((await get(`video/comment?videoId=${videoId}`)).body.videoCommentList as Array<{ text: string }>)
      .map((c) => c.text)
      .join(' ');
    expect(texts).not.toContain('the bad floor');
    expect(texts).toContain('first floor');
  });

  it('bans the author and hides the item; a user cannot be deleted; an administrator cannot ban staff', async () => {
    const spammer = await member(server, 'Spammer');
    const videoId = await insertVideo(server, uploader, 60_000);
    const danmakuId = await danmakuOn(videoId, 'buy cheap stuff', spammer);
    const reportId = (await report({ targetType: 'danmaku', targetId: danmakuId })).body.reportId;
    expect((await resolve(reportId, 'ban')).status).toBe(200);
    expect(
      (await server.db.selectFrom('users').select('roles').where('uid', '=', uidOf(spammer)).executeTakeFirstOrThrow())
        .roles,
    ).toEqual(['blocked']);
    expect(
      (await post('video/danmaku/emit', { videoId, time: 2, text: 'again', color: 'ffffff' }, spammer)).status,
    ).toBe(403);
    expect(
      ((await get(`video/danmaku?videoId=${videoId}`)).body.danmaku as Array<{ text: string }>).map((d) => d.text),
    ).not.toContain('buy cheap stuff');

    const userReport = (await report({ targetType: 'user', targetId: uidOf(uploader), reason: 'privacy' })).body
      .reportId;
    expect((await resolve(userReport, 'delete')).body.code).toBe('ACTION_NOT_APPLICABLE');
    const staffReport = (await report({ targetType: 'user', targetId: uidOf(otherAdmin) })).body.reportId;
    expect((await resolve(staffReport, 'ban')).status).toBe(403);
    expect(
      (
        await server.db
          .selectFrom('users')
          .select('roles')
          .where('uid', '=', uidOf(otherAdmin))
          .executeTakeFirstOrThrow()
      ).roles,
    ).toEqual(['administrator']);
    // Hiding a user resets their public profile.
    await server.db
      .updateTable('users')
      .set({ signature: 'my shop: spam.example' })
      .where('uid', '=', uidOf(uploader))
      .execute();
    expect((await resolve(userReport, 'hide')).status).toBe(200);
    expect(
      (
        await server.db
          .selectFrom('users')
          .select('signature')
          .where('uid', '=', uidOf(uploader))
          .executeTakeFirstOrThrow()
      ).signature,
    ).toBe('');
  });

  it('logs every staff action, filtered by actor and action and paged; members edit nothing of it', async () => {
    const adminUid = uidOf(admin);
    const pendingVideo = await insertVideo(server, uploader, 60_000, 'pending');
    const rejectedVideo = await insertVideo(server, uploader, 60_000, 'pending');
    const deletedVideo = await insertVideo(server, uploader, 60_000);
    const audioId = await insertAudio(server, uploader, 30_000, 'pending');
    const photoId = await insertPhoto(server, uploader, 'pending');
    const target = await member(server, 'RoleTarget');
    expect((await post('video/pending/approved', { videoId: pendingVideo }, admin)).status).toBe(200);
    expect((await post('video/pending/rejected', { videoId: rejectedVideo, reason: 'SPAM' }, admin)).status).toBe(200);
    expect(
      (await jsonCall(server, 'video/delete', { method: 'DELETE', cookie: admin, body: { videoId: deletedVideo } }))
        .status,
    ).toBe(200);
    expect((await post('audio/pending/approved', { audioId }, admin)).status).toBe(200);
    expect((await post('photo/pending/rejected', { photoId, reason: 'SPAM' }, admin)).status).toBe(200);
    expect(
      (await post('rbac/adminUpdateUserRole', { uid: uidOf(target), newRoles: ['developer'] }, admin)).status,
    ).toBe(200);
    expect((await post('rbac/adminUpdateUserRole', { uid: uidOf(target), newRoles: ['blocked'] }, admin)).status).toBe(
      200,
    );
    expect((await post('user/approveUserInfo', { uid: uidOf(uploader) }, admin)).status).toBe(200);
    const commentVideo = await insertVideo(server, uploader, 60_000);
    await commentOn(commentVideo, 'staff removes this', second);
    expect(
      (
        await jsonCall(server, 'video/comment/adminDeleteComment', {
          method: 'DELETE',
          cookie: admin,
          body: { videoId: commentVideo, commentRoute: `${commentVideo}.1` },
        })
      ).status,
    ).toBe(200);
    // An uploader deleting their own video is not a staff action.
    const own = await insertVideo(server, uploader, 60_000);
    expect(
      (await jsonCall(server, 'video/delete', { method: 'DELETE', cookie: uploader, body: { videoId: own } })).status,
    ).toBe(200);

    const entries = await logOf(`&actor=${adminUid}`);
    const seen = (action: string, targetId: number) =>
      entries.some((e) => e.action === action && e.targetId === targetId && e.actor.uid === adminUid);
    expect(seen('video.approve', pendingVideo)).toBe(true);
    expect(seen('video.reject', rejectedVideo)).toBe(true);
    expect(seen('video.delete', deletedVideo)).toBe(true);
    expect(seen('audio.approve', audioId)).toBe(true);
    expect(seen('photo.reject', photoId)).toBe(true);
    expect(seen('user.roles', uidOf(target))).toBe(true);
    expect(seen('user.ban', uidOf(target))).toBe(true);
    expect(seen('profile.approve', uidOf(uploader))).toBe(true);
    expect(seen('comment.delete', commentVideo)).toBe(true);
    expect(seen('report.resolve', uidOf(uploader))).toBe(true);
    expect(seen('danmaku.hide', entries.find((e) => e.action === 'danmaku.hide')?.targetId ?? -1)).toBe(true);
    expect(entries.some((e) => e.targetId === own && e.action === 'video.delete')).toBe(false);
    expect(entries.find((e) => e.action === 'user.ban')!.details).toMatchObject({
      from: ['developer'],
      to: ['blocked'],
    });
    expect((await logOf('&action=video.reject')).every((e) => e.action === 'video.reject')).toBe(true);
    expect(await logOf(`&actor=${uidOf(otherAdmin)}`)).toEqual([]);
    // Pages by cursor: two pages of one entry each, newest first, no overlap.
    const page1 = (await get(`moderation/log?pageSize=1&actor=${adminUid}`, admin)).body;
    const page2 = (await get(`moderation/log?pageSize=1&actor=${adminUid}&cursor=${page1.nextCursor}`, admin)).body;
    expect(page2.entries[0].entryId).toBeLessThan(page1.entries[0].entryId);
    expect((await get('moderation/log?cursor=!!', admin)).status).toBe(400);
  });

  it('has no route that changes or removes a log entry', () => {
    const logRoutes = Object.keys(ROUTES).filter((key) => /moderation/.test(key.split(' ')[1]!));
    expect(logRoutes).toEqual(['GET moderation/log']);
  });

  it('relates videos by tags, uploader and co-viewing; never itself, unapproved ones, nor blocked or hidden uploaders', async () => {
    const other = await member(server, 'RelatedOther');
    const blocked = await member(server, 'RelatedBlocked');
    const hidden = await member(server, 'RelatedHidden');
    const viewer = await member(server, 'RelatedViewer');
    const { tag_id: tagId } = await server.db
      .insertInto('tags')
      .values({ created_by: uidOf(uploader) })
      .returning('tag_id')
      .executeTakeFirstOrThrow();
    const tagged = async (cookie: string, status: 'approved' | 'pending' = 'approved') => {
      const id = await insertVideo(server, cookie, 60_000, status);
      await server.db.insertInto('video_tags').values({ video_id: id, tag_id: tagId, position: 0 }).execute();
      return id;
    };
    const main = await tagged(uploader);
    const sharesTag = await tagged(other);
    const sameUploader = await insertVideo(server, uploader, 60_000);
    const coViewed = await insertVideo(server, other, 60_000);
    const unrelated = await insertVideo(server, other, 60_000);
    const pending = await tagged(other, 'pending');
    const byBlocked = await tagged(blocked);
    const byHidden = await tagged(hidden);
    const deleted = await tagged(other);
    await server.db.updateTable('videos').set({ status: 'deleted' }).where('video_id', '=', deleted).execute();
    for (const watcher of [second, viewer]) {
      await server.db
        .insertInto('watch_history')
        .values([
          { uid: uidOf(watcher), video_id: main, anchor: 1 },
          { uid: uidOf(watcher), video_id: coViewed, anchor: 1 },
        ])
        .execute();
    }
    expect((await post('block/user', { blockUid: uidOf(blocked) }, viewer)).status).toBe(200);
    expect((await post('block/hideuser', { hideUid: uidOf(hidden) }, viewer)).status).toBe(200);

    const related = async (cookie?: string) =>
      ((await get(`video/related?videoId=${main}&limit=50`, cookie)).body.videos as Array<{ videoId: number }>).map(
        (v) => v.videoId,
      );
    const forViewer = await related(viewer);
    expect(forViewer).toEqual(expect.arrayContaining([sharesTag, sameUploader, coViewed]));
    for (const never of [main, pending, byBlocked, byHidden, deleted, unrelated])
      expect(forViewer).not.toContain(never);
    // Co-viewing weighs most: the video watched by the same members comes first.
    expect(forViewer[0]).toBe(coViewed);
    const forGuest = await related();
    expect(forGuest).toEqual(expect.arrayContaining([byBlocked, byHidden]));
    for (const never of [main, pending, deleted]) expect(forGuest).not.toContain(never);
    expect((await get(`video/related?videoId=${main}&limit=1`)).body.videos).toHaveLength(1);
    expect((await get('video/related?videoId=abc')).status).toBe(400);
  });

  it('relates tracks by tags, uploader and co-listening; never itself, unapproved ones, nor blocked or hidden uploaders', async () => {
    const other = await member(server, 'TrackOther');
    const blocked = await member(server, 'TrackBlocked');
    const hidden = await member(server, 'TrackHidden');
    const listener = await member(server, 'TrackListener');
    const { tag_id: tagId } = await server.db
      .insertInto('tags')
      .values({ created_by: uidOf(uploader) })
      .returning('tag_id')
      .executeTakeFirstOrThrow();
    const tagged = async (cookie: string, status: 'approved' | 'pending' = 'approved') => {
      const id = await insertAudio(server, cookie, 30_000, status);
      await server.db.insertInto('audio_tags').values({ audio_id: id, tag_id: tagId, position: 0 }).execute();
      return id;
    };
    const main = await tagged(uploader);
    const sharesTag = await tagged(other);
    const sameUploader = await insertAudio(server, uploader, 30_000);
    const coListened = await insertAudio(server, other, 30_000);
    const unrelated = await insertAudio(server, other, 30_000);
    const pending = await tagged(other, 'pending');
    const byBlocked = await tagged(blocked);
    const byHidden = await tagged(hidden);
    const deleted = await tagged(other);
    await server.db.updateTable('audio_tracks').set({ status: 'deleted' }).where('audio_id', '=', deleted).execute();
    // Two members listened to both the track and another one.
    for (const who of [second, listener]) {
      await server.db
        .insertInto('watch_history')
        .values([
          { uid: uidOf(who), video_id: main, target_type: 'audio', anchor: 1 },
          { uid: uidOf(who), video_id: coListened, target_type: 'audio', anchor: 1 },
        ])
        .execute();
    }
    expect((await post('block/user', { blockUid: uidOf(blocked) }, listener)).status).toBe(200);
    expect((await post('block/hideuser', { hideUid: uidOf(hidden) }, listener)).status).toBe(200);

    const related = async (cookie?: string) => {
      const answer = await get(`audio/related?audioId=${main}&limit=50`, cookie);
      expect(answer.status).toBe(200);
      return (answer.body.tracks as Array<{ audioId: number }>).map((t) => t.audioId);
    };
    const forListener = await related(listener);
    expect(forListener).toEqual(expect.arrayContaining([sharesTag, sameUploader, coListened]));
    for (const never of [main, pending, byBlocked, byHidden, deleted, unrelated])
      expect(forListener).not.toContain(never);
    expect(forListener[0]).toBe(coListened);
    const forGuest = await related();
    expect(forGuest).toEqual(expect.arrayContaining([byBlocked, byHidden]));
    for (const never of [main, pending, deleted]) expect(forGuest).not.toContain(never);
    expect((await get(`audio/related?audioId=${main}&limit=1`)).body.tracks).toHaveLength(1);
    expect((await get('audio/related?audioId=abc')).status).toBe(400);
    expect((await get(`audio/related?audioId=${main}&limit=51`)).status).toBe(400);
  });
});
