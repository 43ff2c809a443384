/**
 * "My videos": an uploader lists their own videos in every status with their counts, edits their
 * metadata (an approved video whose public text changes goes back to review) and deletes them;
 * and administrators change roles within what the policy allows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { createMediaAccess } from '../../server/media/media-access.ts';
import { hlsPath } from '../../server/media/pipeline.ts';
import { VIDEO_DESCRIPTION_MAX, VIDEO_TITLE_MAX } from '../../src/lib/api/contracts/video.constants.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

describe.each(BACKENDS)('my videos on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let other = '';
  let admin = '';
  let root = '';
  const send = (method: string, path: string, body: unknown, cookie?: string, locale?: string) =>
    jsonCall(server, path, { method, cookie, locale, body });
  const get = (path: string, cookie?: string) => jsonCall(server, path, { cookie });
  const update = (body: Record<string, unknown>, cookie = uploader, locale?: string) =>
    send('POST', 'video/update', body, cookie, locale);
  const mine = async (cookie = uploader) => (await get('video/mine?pageSize=50', cookie)).body;
  const mediaOf = async (videoId: number) =>
    (
      await server.db
        .selectFrom('video_parts')
        .select('media_id')
        .where('video_id', '=', videoId)
        .executeTakeFirstOrThrow()
    ).media_id;
  const tag = async (name: string) =>
    (
      await send(
        'POST',
        'video/tag/create',
        { tagNameList: [{ lang: 'en', tagName: [{ name, isDefault: true }] }] },
        uploader,
      )
    ).body.tagId as number;

  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'OwnUploader');
    other = await member(server, 'OtherMember');
    admin = await member(server, 'RoleAdmin', ['administrator']);
    root = await member(server, 'RoleRoot', ['root']);
  });
  afterAll(() => server?.close());

  it('lists every one of my videos with its state and counts; others see only the approved ones', async () => {
    const uid = uidOf(uploader);
    const approved = await insertVideo(server, uploader, 60_000, 'approved');
    const pending = await insertVideo(server, uploader, 60_000, 'pending');
    const processing = await insertVideo(server, uploader, 60_000, 'pending');
    await server.db
      .updateTable('media')
      .set({ status: 'transcoding' })
      .where('media_id', '=', await mediaOf(processing))
      .execute();
    const refused = await insertVideo(server, uploader, 60_000, 'pending');
    await server.db
      .updateTable('media')
      .set({ status: 'rejected', reason: 'TOO_LONG' })
      .where('media_id', '=', await mediaOf(refused))
      .execute();
    const failed = await insertVideo(server, uploader, 60_000, 'pending');
    await server.db
      .updateTable('media')
      .set({ status: 'failed' })
      .where('media_id', '=', await mediaOf(failed))
      .execute();
    const removed = await insertVideo(server, uploader, 60_000, 'pending');
    expect((await send('DELETE', 'video/delete', { videoId: removed }, admin)).status).toBe(200);
    const ownDeleted = await insertVideo(server, uploader, 60_000, 'approved');
    expect((await send('DELETE', 'video/delete', { videoId: ownDeleted }, uploader)).status).toBe(200);

    await server.db
      .insertInto('danmaku')
      .values(
        [1, 2, 3].map((time) => ({
          video_id: approved,
          uid,
          time,
          text: `弾幕${time}`,
          color: 'ffffff',
          font_size: 'medium' as const,
          mode: 'rtl' as const,
        })),
      )
      .execute();
    await server.db
      .insertInto('comments')
      .values([
        { video_id: approved, floor: 1, uid, text: 'one' },
        { video_id: approved, floor: 2, uid, text: 'two' },
        { video_id: approved, floor: 3, uid, text: 'gone', deleted_at: new Date(), deleted_by: uid },
      ])
      .execute();
    await server.db.updateTable('videos').set({ watched_count: 7 }).where('video_id', '=', approved).execute();
    // A second part for the approved one (the part the owner's deleted video had): the subtitle panel offers P1 and P2.
    await server.db
      .updateTable('video_parts')
      .set({ video_id: approved, part_index: 1 })
      .where('video_id', '=', ownDeleted)
      .execute();

    const list = await mine();
    const byId = new Map((list.videos as Array<Record<string, any>>).map((v) => [v.videoId, v]));
    expect(list.videosCount).toBe(6);
    expect(byId.has(ownDeleted)).toBe(false);
    expect(byId.get(approved)).toMatchObject({
      state: 'approved',
      rejectionReason: null,
      watchedCount: 7,
      danmakuCount: 3,
      commentCount: 2,
      editable: true,
      tags: [],
      partCount: 2,
    });
    expect(byId.get(pending)).toMatchObject({
      state: 'pending',
      danmakuCount: 0,
      commentCount: 0,
      editable: true,
      partCount: 1,
    });
    expect(byId.get(processing)).toMatchObject({ state: 'processing' });
    expect(byId.get(refused)).toMatchObject({ state: 'rejected', rejectionReason: 'TOO_LONG', editable: true });
    expect(byId.get(failed)).toMatchObject({ state: 'rejected', rejectionReason: 'CORRUPT' });
    expect(byId.get(removed)).toMatchObject({
      state: 'rejected',
      rejectionReason: 'REMOVED_BY_REVIEWER',
      editable: false,
    });
    // Newest first, paged.
    const firstPage = (await get('video/mine?page=1&pageSize=2', uploader)).body;
    expect(firstPage.videosCount).toBe(6);
    expect(firstPage.videos.map((v: { videoId: number }) => v.videoId)).toEqual([removed, failed]);

    // Another member: their own list is empty, and the uploader's page shows only what is approved.
    expect((await mine(other)).videosCount).toBe(0);
    const publicList = (await get(`video/user?uid=${uid}`, other)).body;
    expect(publicList.videos.map((v: { videoId: number }) => v.videoId)).toEqual([approved]);
    expect((await get(`video/user?uid=${uid}`)).body.videosCount).toBe(1);
    // A guest has no videos of their own.
    expect((await get('video/mine')).status).toBe(401);
    const badPage = await get('video/mine?pageSize=51', uploader);
    expect([badPage.status, badPage.body.code]).toEqual([400, 'VALIDATION_FAILED']);
  });

  it('checks an edit as the upload commit checks it, with messages in the caller’s language', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'pending');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: '   ' }, 'title'],
      [{ title: 'x'.repeat(VIDEO_TITLE_MAX + 1) }, 'title'],
      [{ description: 'x'.repeat(VIDEO_DESCRIPTION_MAX + 1) }, 'description'],
      [{ videoCategory: 'cooking' }, 'videoCategory'],
      [{ videoTagList: Array.from({ length: 11 }, (_, i) => i + 1) }, 'videoTagList'],
      [{ videoTagList: [987_654] }, 'videoTagList'],
      [{ image: '/media/images/covers/1-elsewhere.webp' }, 'image'],
      [{ image: 'https://evil.example/cover.webp' }, 'image'],
    ];
    for (const [fields, path] of cases) {
      const res = await update({ videoId, ...fields }, uploader, 'ja');
      expect([res.status, res.body.code], JSON.stringify(fields)).toEqual([400, 'VALIDATION_FAILED']);
      expect(res.body.issues.map((i: { path: string }) => i.path.split('.')[0])).toContain(path);
      expect(res.body.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/);
    }
    expect((await update({ videoId: 'kv1' })).status).toBe(400);
    // At the limits, and trimmed.
    const ok = await update({
      videoId,
      title: `  ${'題'.repeat(VIDEO_TITLE_MAX)}  `,
      description: 'd'.repeat(VIDEO_DESCRIPTION_MAX),
    });
    expect(ok).toEqual({ status: 200, body: { success: true, status: 'pending', backToReview: false } });
    const row = await server.db
      .selectFrom('videos')
      .select(['title', 'description'])
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    expect(row.title).toBe('題'.repeat(VIDEO_TITLE_MAX));
    // Nothing sent but the id changes nothing.
    expect((await update({ videoId })).body).toEqual({ success: true, status: 'pending', backToReview: false });
  });

  it('sends an approved video back to review when its public text changes, not for its category alone', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'approved');
    const [a, b] = [await tag('edit-tag-a'), await tag('edit-tag-b')];
    const category = await update({ videoId, videoCategory: 'music' });
    expect(category.body).toEqual({ success: true, status: 'approved', backToReview: false });
    expect((await get(`video/exists?videoId=${videoId}`)).body.exist).toBe(true);

    const edited = await update({ videoId, title: '新しいタイトル', videoTagList: [b, a, b] });
    expect(edited.body).toEqual({ success: true, status: 'pending', backToReview: true });
    // Hidden until approved again; its uploader still sees it, pending, with the new text and tags in order.
    expect((await get(`video/exists?videoId=${videoId}`)).body.exist).toBe(false);
    expect((await get(`video?videoId=${videoId}`, other)).status).toBe(404);
    const own = (await get(`video?videoId=${videoId}`, uploader)).body.video;
    expect(own).toMatchObject({ title: '新しいタイトル', status: 'pending', videoCategory: 'music' });
    expect(own.videoTagList.map((t: { tagId: number }) => t.tagId)).toEqual([b, a]);
    expect(
      (await get('video/pending?pageSize=100', admin)).body.videos.map((v: { videoId: number }) => v.videoId),
    ).toContain(videoId);
    // Keyword search reads the new title once public.
    expect((await send('POST', 'video/pending/approved', { videoId }, admin)).status).toBe(200);
    expect((await get(`video?videoId=${videoId}`, other)).body.video.title).toBe('新しいタイトル');
    expect(
      (await get(`video/search?keyword=${encodeURIComponent('新しいタイトル')}`)).body.videos.map(
        (v: { videoId: number }) => v.videoId,
      ),
    ).toContain(videoId);

    // The same text again changes nothing public; a new description does.
    expect((await update({ videoId, title: '新しいタイトル', videoTagList: [b, a] })).body.backToReview).toBe(false);
    expect((await update({ videoId, description: '説明を追加' })).body).toEqual({
      success: true,
      status: 'pending',
      backToReview: true,
    });
  });

  it('refuses an edit by another member, allows staff, and answers 404 for a video that is gone', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'approved');
    const refused = await update({ videoId, title: '乗っ取り' }, other, 'zhs');
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    expect(refused.body.message).toMatch(/[\u4e00-\u9fff]/);
    expect((await update({ videoId, title: 'x' })).status).toBe(200);
    expect((await update({ videoId, videoCategory: 'tech' }, admin)).body).toMatchObject({ success: true });
    expect((await update({ videoId: 987_654_321, title: 'x' })).status).toBe(404);
    expect((await send('POST', 'video/update', { videoId, title: 'x' })).status).toBe(401);
    const banned = await member(server, 'BannedUploader');
    const bannedVideo = await insertVideo(server, banned, 60_000, 'approved');
    await server.db
      .updateTable('users')
      .set({ roles: ['blocked'] })
      .where('uid', '=', uidOf(banned))
      .execute();
    const blocked = await update({ videoId: bannedVideo, title: 'x' }, banned);
    expect([blocked.status, blocked.body.code]).toEqual([403, 'USER_BLOCKED']);
  });

  it('deletes a video for its owner: gone from every list, its media and danmaku unreachable', async () => {
    const uid = uidOf(uploader);
    const videoId = await insertVideo(server, uploader, 60_000, 'approved');
    const mediaId = await mediaOf(videoId);
    await send('POST', 'history/record', { videoId, anchor: 3 }, uploader);
    expect((await send('DELETE', 'video/delete', { videoId }, other)).status).toBe(403);
    expect((await send('DELETE', 'video/delete', { videoId }, uploader)).status).toBe(200);
    expect((await mine()).videos.map((v: { videoId: number }) => v.videoId)).not.toContain(videoId);
    expect(
      (await get(`video/user?uid=${uid}`, uploader)).body.videos.map((v: { videoId: number }) => v.videoId),
    ).not.toContain(videoId);
    expect((await get(`video?videoId=${videoId}`, uploader)).status).toBe(404);
    expect((await get(`video/danmaku?videoId=${videoId}`, uploader)).status).toBe(404);
    expect(
      (await get('history/filter', uploader)).body.result?.map?.((v: { videoId: number }) => v.videoId) ?? [],
    ).not.toContain(videoId);
    expect(
      await createMediaAccess(server.repositories, server.caches)(`/${hlsPath(mediaId)}/poster.jpg`, uploader),
    ).toBeNull();
    // Deleted is final: no second delete, no edit.
    expect((await send('DELETE', 'video/delete', { videoId }, uploader)).status).toBe(404);
    expect((await update({ videoId, title: 'again' })).status).toBe(404);
  });

  it('lets root change any roles and an administrator only those of users who neither are nor become staff', async () => {
    const setRoles = (cookie: string, target: string, newRoles: string[]) =>
      send('POST', 'rbac/adminUpdateUserRole', { uid: uidOf(target), newRoles }, cookie);
    const plain = await member(server, 'PlainMember');
    const otherAdmin = await member(server, 'SecondAdmin', ['administrator']);
    // An administrator grants and revokes developer.
    expect((await setRoles(admin, plain, ['user', 'developer'])).body).toEqual({
      success: true,
      uid: uidOf(plain),
      roles: ['developer', 'user'],
    });
    expect((await setRoles(admin, plain, ['user'])).body.roles).toEqual(['user']);
    // …but may not make an administrator, nor touch one, nor root.
    for (const [target, roles] of [
      [plain, ['administrator']],
      [otherAdmin, ['user']],
      [root, ['user']],
    ] as Array<[string, string[]]>) {
      const refused = await setRoles(admin, target, roles);
      expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN']);
    }
    // A member may change nobody's roles.
    expect((await setRoles(other, plain, ['developer'])).status).toBe(403);
    // Root grants and revokes administrator.
    expect((await setRoles(root, plain, ['administrator', 'user'])).body.roles).toEqual(['administrator', 'user']);
    expect(
      (await get('user/adminGetUserInfo?isOnlyShowUserInfoUpdatedAfterReview=false&pageSize=100', plain)).status,
    ).toBe(200);
    expect((await setRoles(root, plain, ['user'])).body.roles).toEqual(['user']);
    expect((await get('user/adminGetUserInfo?pageSize=100', plain)).status).toBe(403);
  });
});
