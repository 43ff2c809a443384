/**
 * Review with a reason: a reviewer refuses a pending video, track or photo post with one of the
 * review reasons and a note; the item leaves the queue and every public list, and its uploader
 * reads the reason and note in "my videos", "my tracks" and on their own Photos tab. And the
 * profile review queue starts without the accounts nobody needs to review (staff, the CLI's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertPhoto, insertVideo, member } from './media-helpers.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { REVIEW_NOTE_MAX } from '../../src/lib/api/contracts/common.constants.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('review rejections on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let other = '';
  let admin = '';
  const send = (path: string, body: unknown, cookie?: string, locale?: string) =>
    jsonCall(server, path, { method: 'POST', cookie, locale, body });
  const get = (path: string, cookie?: string) => jsonCall(server, path, { cookie });

  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'RejectedUploader');
    other = await member(server, 'SomeoneElse');
    admin = await member(server, 'Reviewer', ['administrator']);
  });
  afterAll(() => server?.close());

  it('refuses a pending video with a reason and note the uploader reads in my videos', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'pending');
    const res = await send(
      'video/pending/rejected',
      { videoId, reason: 'MISLEADING', note: '  The cover shows another anime.\r\nPlease change it.  ' },
      admin,
    );
    expect(res).toMatchObject({ status: 200, body: { success: true } });
    // Out of the queue and out of sight.
    expect(
      (await get('video/pending?pageSize=50', admin)).body.videos.map((v: { videoId: number }) => v.videoId),
    ).not.toContain(videoId);
    expect((await get(`video?videoId=${videoId}`, uploader)).status).toBe(404);
    const mine = (await get('video/mine?pageSize=50', uploader)).body.videos.find(
      (v: { videoId: number }) => v.videoId === videoId,
    );
    expect(mine).toMatchObject({
      state: 'rejected',
      rejectionReason: 'MISLEADING',
      rejectionNote: 'The cover shows another anime.\nPlease change it.',
      editable: false,
    });
    // A second refusal finds nothing pending.
    expect((await send('video/pending/rejected', { videoId, reason: 'SPAM' }, admin)).status).toBe(404);
    // A plain deletion by staff still reads as removed by a reviewer, without a note.
    const removed = await insertVideo(server, uploader, 60_000, 'pending');
    await jsonCall(server, 'video/delete', { method: 'DELETE', cookie: admin, body: { videoId: removed } });
    expect(
      (await get('video/mine?pageSize=50', uploader)).body.videos.find(
        (v: { videoId: number }) => v.videoId === removed,
      ),
    ).toMatchObject({ rejectionReason: 'REMOVED_BY_REVIEWER', rejectionNote: null });
  });

  it('refuses only pending items, only for staff, and checks the reason and note', async () => {
    const approved = await insertVideo(server, uploader, 60_000, 'approved');
    expect((await send('video/pending/rejected', { videoId: approved, reason: 'SPAM' }, admin)).status).toBe(404);
    const pending = await insertVideo(server, uploader, 60_000, 'pending');
    expect((await send('video/pending/rejected', { videoId: pending, reason: 'SPAM' })).status).toBe(401);
    expect((await send('video/pending/rejected', { videoId: pending, reason: 'SPAM' }, uploader)).status).toBe(403);
    const unknown = await send('video/pending/rejected', { videoId: pending, reason: 'BORING' }, admin);
    expect(unknown).toMatchObject({ status: 400, body: { success: false, code: 'VALIDATION_FAILED' } });
    // OTHER names nothing: a note is needed, in the caller's language.
    const bare = await send('video/pending/rejected', { videoId: pending, reason: 'OTHER', note: '   ' }, admin, 'ja');
    expect(bare.status).toBe(400);
    expect(bare.body.code).toBe('VALIDATION_FAILED');
    expect(bare.body.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    expect(
      (
        await send(
          'video/pending/rejected',
          { videoId: pending, reason: 'SPAM', note: 'x'.repeat(REVIEW_NOTE_MAX + 1) },
          admin,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await send(
          'video/pending/rejected',
          { videoId: pending, reason: 'OTHER', note: 'Already uploaded as kv1.' },
          admin,
        )
      ).status,
    ).toBe(200);
    const row = await server.db
      .selectFrom('videos')
      .select(['status', 'deleted_by', 'rejection_reason', 'rejection_note'])
      .where('video_id', '=', pending)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      status: 'deleted',
      deleted_by: uidOf(admin),
      rejection_reason: 'OTHER',
      rejection_note: 'Already uploaded as kv1.',
    });
  });

  it('refuses a pending track: gone from the queue and lists, shown with its reason in my tracks', async () => {
    const audioId = await insertAudio(server, uploader, 30_000, 'pending');
    const kept = await insertAudio(server, uploader, 30_000, 'pending');
    expect(
      (
        await send(
          'audio/pending/rejected',
          { audioId, reason: 'COPYRIGHT', note: 'This is a commercial single.' },
          admin,
        )
      ).status,
    ).toBe(200);
    const queue = (await get('audio/pending?pageSize=50', admin)).body.tracks.map(
      (t: { audioId: number }) => t.audioId,
    );
    expect(queue).toContain(kept);
    expect(queue).not.toContain(audioId);
    expect((await get(`audio?audioId=${audioId}`, uploader)).status).toBe(404);
    const ownPage = (await get(`audio/user?uid=${uidOf(uploader)}`, uploader)).body.tracks.map(
      (t: { audioId: number }) => t.audioId,
    );
    expect(ownPage).not.toContain(audioId);
    const mine = (await get('audio/mine?pageSize=50', uploader)).body;
    const byId = new Map((mine.tracks as Array<Record<string, unknown>>).map((t) => [t.audioId, t]));
    expect(byId.get(audioId)).toMatchObject({
      status: 'rejected',
      rejectionReason: 'COPYRIGHT',
      rejectionNote: 'This is a commercial single.',
    });
    expect(byId.get(kept)).toMatchObject({ status: 'pending', rejectionReason: null, rejectionNote: null });
    expect(mine.count).toBe(2);
    // Someone else's list never holds it; the uploader's own deletion of a track is not a refusal.
    expect((await get('audio/mine', other)).body.count).toBe(0);
    await jsonCall(server, 'audio/delete', { method: 'DELETE', cookie: uploader, body: { audioId: kept } });
    expect(
      (await get('audio/mine?pageSize=50', uploader)).body.tracks.map((t: { audioId: number }) => t.audioId),
    ).toEqual([audioId]);
    expect((await send('audio/pending/rejected', { audioId, reason: 'SPAM' }, uploader)).status).toBe(403);
  });

  it('refuses a photo post: the uploader sees it marked with the reason on their Photos tab, nobody else', async () => {
    const photoId = await insertPhoto(server, uploader, 'pending');
    expect((await send('photo/pending/rejected', { photoId, reason: 'INAPPROPRIATE' }, admin)).status).toBe(200);
    expect(
      (await get('photo/pending?pageSize=50', admin)).body.photos.map((p: { photoId: number }) => p.photoId),
    ).not.toContain(photoId);
    const own = (await get(`photo/user?uid=${uidOf(uploader)}`, uploader)).body.photos.find(
      (p: { photoId: number }) => p.photoId === photoId,
    );
    expect(own).toMatchObject({
      status: 'rejected',
      rejectionReason: 'INAPPROPRIATE',
      rejectionNote: null,
      cover: null,
    });
    const seenByOther = (await get(`photo/user?uid=${uidOf(uploader)}`, other)).body.photos.map(
      (p: { photoId: number }) => p.photoId,
    );
    expect(seenByOther).not.toContain(photoId);
    expect((await get(`photo?photoId=${photoId}`, uploader)).status).toBe(404);
    expect((await send('photo/pending/rejected', { photoId, reason: 'OTHER' }, admin)).status).toBe(400);
  });

  it('keeps staff and operator-made accounts out of the profile review queue; registrations stay in it', async () => {
    const repositories = createRepositories(server.db);
    const staff = await insertAccount(repositories, {
      email: 'boss@example.com',
      password: 'a long staff passphrase',
      username: 'BossAdmin',
      roles: ['administrator'],
    });
    const cli = await insertAccount(repositories, {
      email: 'cli@example.com',
      password: 'a long cli passphrase',
      username: 'CliMember',
      reviewed: true,
    });
    const plain = await insertAccount(repositories, {
      email: 'plain@example.com',
      password: 'a long plain passphrase',
      username: 'PlainMember',
    });
    const queue = (await get('user/adminGetUserInfo?isOnlyShowUserInfoUpdatedAfterReview=true&pageSize=50', admin))
      .body;
    const uids = (queue.result as Array<{ uid: number }>).map((u) => u.uid);
    expect(uids).toContain(plain);
    expect(uids).not.toContain(staff);
    expect(uids).not.toContain(cli);
  });
});
