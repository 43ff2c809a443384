import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import sharp from 'sharp';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { makeVideo, member, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { startServer } from '../../server/main.ts';
import { searchTextOf } from '../../server/services/videos.ts';
import { matchesSearchWord, searchCandidates } from '../../server/repositories/search.sql.ts';
import { sql } from 'kysely';
import { POSTER_FORMATS, POSTER_WIDTHS, posterSources } from '../../src/lib/catalogue/poster.ts';

useVideoFixtures();
const PROBED = ['probed', 'transcoding', 'playable', 'ready', 'rejected', 'failed'];
const json = (body: unknown, cookie?: string, method = 'POST'): RequestInit => ({
  method,
  body: JSON.stringify(body),
  headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
});
const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);
const commitBody = (mediaId: string, extra: Record<string, unknown> = {}) => ({
  title: '测试视频',
  description: '',
  videoPart: [{ mediaId, videoPartTitle: 'P1' }],
  videoCategory: 'anime',
  copyright: 'original',
  ensureOriginal: true,
  ...extra,
});

/**
 * A media item that the pipeline has already checked, written straight to the database: the
 * search and listing tests need many videos, not many transcodes (those are tested for real).
 */
async function checkedMedia(server: TestServer, cookie: string, durationMs = 60_000): Promise<string> {
  const uid = uidOf(cookie);
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await server.db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'seed.mp4',
      size: 1,
      max_duration_seconds: 1800,
      expires_at: new Date(Date.now() + 3600_000),
      media_id: mediaId,
    })
    .execute();
  await server.db
    .insertInto('media')
    .values({
      media_id: mediaId,
      upload_id: uploadId,
      uid,
      status: 'ready',
      duration_ms: durationMs,
      width: 640,
      height: 360,
      renditions: [360],
    })
    .execute();
  return mediaId;
}

async function commit(server: TestServer, cookie: string, body: Record<string, unknown>) {
  const res = await server.api('video/upload', json(body, cookie));
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe.each(BACKENDS)('the catalogue on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let other = '';
  let admin = '';
  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'Uploader');
    other = await member(server, 'Stranger');
    admin = await member(server, 'Reviewer', ['administrator']);
  });
  afterAll(() => server?.close());

  it('commits an upload, keeps it for review, publishes it on approval, counts views and soft-deletes it', async () => {
    const mediaId = await upload(server, uploader, await makeVideo(2, 'commit.mp4'));
    await statusOf(server, uploader, mediaId, PROBED);
    // The duration comes from ffprobe; whatever the browser claims is ignored.
    const created = await commit(
      server,
      uploader,
      commitBody(mediaId, {
        title: '  春日影 cover  ',
        description: '第一次投稿',
        duration: 999_999,
        videoCategory: 'music',
      }),
    );
    expect(created.status).toBe(200);
    const videoId = created.body.videoId as number;

    // Pending: only the uploader and reviewers see it.
    expect((await (await server.api(`video/exists?videoId=${videoId}`)).json()).exist).toBe(false);
    expect((await server.api(`video?videoId=${videoId}`)).status).toBe(404);
    expect((await server.api(`video?videoId=${videoId}`, { headers: { Cookie: other } })).status).toBe(404);
    const mine = await (await server.api(`video?videoId=${videoId}`, { headers: { Cookie: uploader } })).json();
    expect(mine.video).toMatchObject({
      videoId,
      title: '春日影 cover',
      description: '第一次投稿',
      videoCategory: 'music',
      status: 'pending',
      copyright: 'original',
    });
    expect(Math.abs(mine.video.duration - 2000)).toBeLessThan(150);
    expect(mine.video.uploaderInfo).toMatchObject({ uid: uidOf(uploader), username: 'Uploader', isSelf: true });
    expect((await server.api(`video?videoId=${videoId}`, { headers: { Cookie: admin } })).status).toBe(200);
    expect(
      (await (await server.api('video/home')).json()).videos.map((v: { videoId: number }) => v.videoId),
    ).not.toContain(videoId);
    const ownList = await (
      await server.api(`video/user?uid=${uidOf(uploader)}`, { headers: { Cookie: uploader } })
    ).json();
    expect(ownList.videos.find((v: { videoId: number }) => v.videoId === videoId)?.status).toBe('pending');
    const publicList = await (await server.api(`video/user?uid=${uidOf(uploader)}`)).json();
    expect(publicList.videos.map((v: { videoId: number }) => v.videoId)).not.toContain(videoId);

    // The review queue shows it with its parts; only staff may read or approve it.
    expect((await server.api('video/pending', { headers: { Cookie: other } })).status).toBe(403);
    const queue = await (await server.api('video/pending', { headers: { Cookie: admin } })).json();
    expect(queue.videos.find((v: { videoId: number }) => v.videoId === videoId)).toMatchObject({
      status: 'pending',
      parts: [{ id: 1, videoPartTitle: 'P1' }],
    });
    expect((await server.api('video/pending/approved', json({ videoId }, other))).status).toBe(403);
    expect((await server.api('video/pending/approved', json({ videoId }, admin))).status).toBe(200);
    expect((await server.api('video/pending/approved', json({ videoId }, admin))).status).toBe(404);
    const reviewed = await server.db
      .selectFrom('videos')
      .select(['status', 'reviewed_by'])
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    expect(reviewed).toEqual({ status: 'approved', reviewed_by: uidOf(admin) });

    // Public now: listed, openable, and once transcoded, playable at the manifest URL template.
    expect((await (await server.api(`video/exists?videoId=${videoId}`)).json()).exist).toBe(true);
    const home = await (await server.api('video/home')).json();
    expect(home.videos[0]).toMatchObject({
      videoId,
      title: '春日影 cover',
      uploader: 'Uploader',
      uploaderId: uidOf(uploader),
      videoCategory: 'music',
    });
    expect(home.videosCount).toBeGreaterThanOrEqual(1);
    await statusOf(server, uploader, mediaId);
    const master = await fetch(`${server.baseUrl}/media/videos/${videoId}/master.m3u8`);
    expect(master.status).toBe(200);
    expect(await master.text()).toContain('240p/index.m3u8');
    const video = (await (await server.api(`video?videoId=${videoId}`)).json()).video;
    expect(video.videoPart[0]).toMatchObject({
      link: `/media/hls/${mediaId}/master.m3u8`,
      processing: 'ready',
      renditions: [240],
    });
    expect(video.videoPart[0].storyboard).toMatchObject({
      url: `/media/hls/${mediaId}/storyboard.jpg`,
      tileWidth: 160,
    });
    // The player's poster: the poster set's 1280 px WebP (poster-sets.test.ts); lists name its 640 px JPEG.
    expect(video.image).toMatch(new RegExp(`^/media/hls/${mediaId}/poster-[0-9a-f]{12}-1280\\.webp$`));
    expect(video.videoPart[0].poster).toBe(video.image);

    // One counted view per viewer per hour.
    const watch = async (cookie?: string) => (await server.api('video/watch', json({ videoId }, cookie))).json();
    expect(await watch()).toMatchObject({ counted: true, watchedCount: 1 });
    expect(await watch()).toMatchObject({ counted: false, watchedCount: 1 });
    // A guest cannot count again by changing what the browser says of itself.
    for (let i = 0; i < 30; i++) {
      const answer = await server.api('video/watch', {
        ...json({ videoId }),
        headers: { 'Content-Type': 'application/json', 'User-Agent': `Browser/${i}`, Cookie: `viewer=${i}` },
      });
      expect(await answer.json()).toMatchObject({ counted: false, watchedCount: 1 });
    }
    expect(await watch(other)).toMatchObject({ counted: true, watchedCount: 2 });
    expect(await watch(other)).toMatchObject({ counted: false, watchedCount: 2 });

    // Only the uploader or staff delete; deletion is soft and records who did it.
    expect((await server.api('video/delete', json({ videoId }, other, 'DELETE'))).status).toBe(403);
    expect((await server.api('video/delete', json({ videoId }, uploader, 'DELETE'))).status).toBe(200);
    expect((await server.api(`video?videoId=${videoId}`, { headers: { Cookie: uploader } })).status).toBe(404);
    expect((await fetch(`${server.baseUrl}/media/videos/${videoId}/master.m3u8`)).status).toBe(404);
    const row = await server.db
      .selectFrom('videos')
      .select(['status', 'deleted_by'])
      .where('video_id', '=', videoId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'deleted', deleted_by: uidOf(uploader) });
  });

  it('refuses commits of media that is not yours, refused, unchecked or already used, and bad metadata', async () => {
    expect((await commit(server, '', commitBody('0'.repeat(24)))).status).toBe(401);
    expect((await commit(server, uploader, commitBody('0'.repeat(24)))).status).toBe(404);
    const theirs = await checkedMedia(server, other);
    expect((await commit(server, uploader, commitBody(theirs))).status).toBe(403);

    const junk = await upload(
      server,
      uploader,
      new TextEncoder().encode('not a video at all'.repeat(50)) as Uint8Array<ArrayBuffer>,
    );
    await statusOf(server, uploader, junk);
    const refused = await commit(server, uploader, commitBody(junk));
    expect([refused.status, refused.body.code, refused.body.reason]).toEqual([422, 'MEDIA_REJECTED', 'NOT_A_VIDEO']);

    const unchecked = await checkedMedia(server, uploader);
    await server.db
      .updateTable('media')
      .set({ status: 'uploaded', duration_ms: null })
      .where('media_id', '=', unchecked)
      .execute();
    expect((await commit(server, uploader, commitBody(unchecked))).body.code).toBe('MEDIA_NOT_READY');

    const mediaId = await checkedMedia(server, uploader);
    const invalid = [
      commitBody(mediaId, { title: '   ' }),
      commitBody(mediaId, { videoCategory: 'cooking' }),
      commitBody(mediaId, { copyright: 'repost', originalAuthor: '' }),
      commitBody(mediaId, { copyright: 'repost', originalAuthor: 'someone', originalLink: 'javascript:alert(1)' }),
      commitBody(mediaId, { ensureOriginal: false }),
      commitBody(mediaId, { videoTagList: [987654] }),
      commitBody(mediaId, { image: '/media/images/covers/1-elsewhere.webp' }),
      commitBody(mediaId, { image: 'https://evil.example/cover.jpg' }),
      { ...commitBody(mediaId), videoPart: [{ mediaId }, { mediaId }] },
    ];
    for (const body of invalid) {
      const result = await commit(server, uploader, body);
      expect([result.status, result.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    }
    expect((await commit(server, uploader, commitBody(mediaId))).status).toBe(200);
    expect((await commit(server, uploader, commitBody(mediaId))).status).toBe(409);

    const banned = await member(server, 'Banned', ['blocked']);
    expect((await commit(server, banned, commitBody(await checkedMedia(server, banned)))).body.code).toBe(
      'USER_BLOCKED',
    );
  });

  it('uses a cover cropped to 16:9 by the image service, and a repost keeps its source', async () => {
    const grant = await (await server.api('video/cover/preUpload', { headers: { Cookie: uploader } })).json();
    const form = new FormData();
    const square = await sharp({ create: { width: 900, height: 900, channels: 3, background: '#3a7bd5' } })
      .jpeg()
      .toBuffer();
    form.set('file', new Blob([new Uint8Array(square)], { type: 'image/jpeg' }), 'cover.jpg');
    const stored = await (await fetch(grant.result.signedUrl, { method: 'POST', body: form })).json();
    // The address is the poster set's 640 px JPEG; its 320, 960 and 1280 px siblings exist in AVIF, WebP and JPEG.
    expect(stored.url).toMatch(
      new RegExp(`^/media/images/covers/${uidOf(uploader)}-[\\w-]+/poster-[0-9a-f]{12}-640\\.jpg$`),
    );
    const sources = posterSources(stored.url)!;
    const urls = [...sources.sets.map((set) => set.srcset), sources.jpgSrcset].flatMap((srcset) =>
      srcset.split(', ').map((entry) => entry.split(' ')),
    );
    expect(urls).toHaveLength(POSTER_WIDTHS.length * POSTER_FORMATS.length);
    for (const [url, descriptor] of urls) {
      const response = await fetch(server.baseUrl + url!);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('cache-control'), url).toMatch(/immutable/);
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.format, `${meta.width}w`, meta.height], url).toEqual([
        { avif: 'heif', webp: 'webp', jpg: 'jpeg' }[url!.split('.').pop()!],
        descriptor,
        (Number.parseInt(descriptor!, 10) * 9) / 16,
      ]);
    }
    // The user's avatar is untouched by a cover upload.
    expect(
      (
        await server.db
          .selectFrom('users')
          .select('avatar')
          .where('uid', '=', uidOf(uploader))
          .executeTakeFirstOrThrow()
      ).avatar,
    ).toBe('');

    const { body } = await commit(
      server,
      uploader,
      commitBody(await checkedMedia(server, uploader), {
        image: stored.url,
        copyright: 'repost',
        originalAuthor: '某位画师',
        originalLink: 'https://example.com/original',
        ensureOriginal: false,
      }),
    );
    const video = (await (await server.api(`video?videoId=${body.videoId}`, { headers: { Cookie: uploader } })).json())
      .video;
    expect(video).toMatchObject({
      image: stored.url,
      copyright: 'repost',
      originalAuthor: '某位画师',
      originalLink: 'https://example.com/original',
    });
    // Someone else cannot reuse that cover.
    expect(
      (await commit(server, other, commitBody(await checkedMedia(server, other), { image: stored.url }))).status,
    ).toBe(400);
  });

  it('creates multilingual tags once and finds them by any name, prefix or CJK substring', async () => {
    const create = (tagNameList: unknown, cookie = uploader) =>
      server.api('video/tag/create', json({ tagNameList }, cookie));
    expect(
      (await server.api('video/tag/create', json({ tagNameList: [{ lang: 'en', tagName: [{ name: 'x' }] }] }))).status,
    ).toBe(401);
    const miku = await (
      await create([
        { lang: 'ja', tagName: [{ name: '初音ミク', isDefault: true, isOriginalTagName: true }] },
        { lang: 'zhs', tagName: [{ name: '初音未来', isDefault: true }] },
        { lang: 'en', tagName: [{ name: 'Hatsune Miku', isDefault: true }, { name: 'Miku' }] },
      ])
    ).json();
    expect(miku.tagId).toBeGreaterThan(0);
    const vocaloid = (await (await create([{ lang: 'en', tagName: [{ name: 'VOCALOID' }] }])).json()).tagId;

    const duplicate = await create([{ lang: 'en', tagName: [{ name: 'miku' }] }], other);
    expect([duplicate.status, (await duplicate.json()).tagId]).toEqual([409, miku.tagId]);
    for (const bad of [
      [],
      [{ lang: 'xx', tagName: [{ name: 'a' }] }],
      [{ lang: 'en', tagName: [{ name: 'a#b' }] }],
      [{ lang: 'en', tagName: [{ name: 'x'.repeat(31) }] }],
    ]) {
      expect((await create(bad)).status).toBe(400);
    }

    const search = async (q: string) =>
      (
        (await (await server.api(`video/tag/search?tagName=${encodeURIComponent(q)}`)).json()).result as Array<{
          tagId: number;
        }>
      ).map((t) => t.tagId);
    expect(await search('初')).toContain(miku.tagId); // one character
    expect(await search('未来')).toContain(miku.tagId); // substring, two characters
    expect(await search('ミク')).toContain(miku.tagId);
    expect(await search('hatsu')).toContain(miku.tagId); // prefix, any case
    expect(await search('ＶＯＣＡ')).toEqual([vocaloid]); // full-width folded
    expect(await search('%')).toEqual([]); // wildcards are literal

    const got = await (await server.api('video/tag/get', json({ tagId: [vocaloid, miku.tagId] }))).json();
    expect(got.result.map((t: { tagId: number }) => t.tagId)).toEqual([vocaloid, miku.tagId]);
    const names = got.result[1].tagNameList;
    expect(names.find((g: { lang: string }) => g.lang === 'en').tagName).toEqual([
      { name: 'Hatsune Miku', isDefault: true, isOriginalTagName: false },
      { name: 'Miku', isDefault: false, isOriginalTagName: false },
    ]);
    expect(names.find((g: { lang: string }) => g.lang === 'ja').tagName[0]).toEqual({
      name: '初音ミク',
      isDefault: true,
      isOriginalTagName: true,
    });
  });

  it('searches titles, descriptions and tag names in Chinese, Japanese and English, ranked and paged', async () => {
    const tag = async (names: Array<[string, string]>) =>
      (
        await (
          await server.api(
            'video/tag/create',
            json(
              {
                tagNameList: names.map(([lang, name]) => ({ lang, tagName: [{ name }] })),
              },
              uploader,
            ),
          )
        ).json()
      ).tagId as number;
    const touhou = await tag([
      ['ja', '東方Project'],
      ['zhs', '东方'],
      ['en', 'Touhou'],
    ]);
    const guitar = await tag([
      ['zhs', '吉他'],
      ['ja', 'ギター'],
      ['en', 'Guitar'],
    ]);
    const publish = async (title: string, description: string, tags: number[]) => {
      const { body } = await commit(
        server,
        uploader,
        commitBody(await checkedMedia(server, uploader), { title, description, videoTagList: tags }),
      );
      await server.api('video/pending/approved', json({ videoId: body.videoId }, admin));
      return body.videoId as number;
    };
    const a = await publish('【东方】恋色マスタースパーク 吉他弹唱', '用木吉他弹的东方名曲', [touhou, guitar]);
    const b = await publish('ギターで弾いてみた「千本桜」', 'アコースティック版です', [guitar]);
    const c = await publish('Lo-fi study beats', 'relaxing music, features a guitar solo', []);
    const d = await publish('猫', '一只猫', []);
    const pending = (
      await commit(server, uploader, commitBody(await checkedMedia(server, uploader), { title: '吉他 pending' }))
    ).body.videoId;

    const ids = async (keyword: string, query = '') => {
      const body = await (await server.api(`video/search?keyword=${encodeURIComponent(keyword)}${query}`)).json();
      return {
        ids: body.videos.map((v: { videoId: number }) => v.videoId) as number[],
        count: body.videosCount as number,
      };
    };
    expect((await ids('猫')).ids).toEqual([d]); // one Chinese character
    expect((await ids('吉他')).ids).toEqual([a, b]); // two characters: a's title, then b's tag (the pending one is not public)
    expect((await ids('ギター')).ids.sort()).toEqual([a, b].sort()); // b by title, a through its tag's Japanese name
    expect((await ids('ギター')).ids[0]).toBe(b); // a title match ranks above a tag match
    const guitarHits = (await ids('guitar')).ids;
    expect([guitarHits.slice(0, 2).sort(), guitarHits[2]]).toEqual([[a, b].sort(), c]); // tag matches above a description match
    expect((await ids('GUITAR')).count).toBe(3); // tag names (a, b) and a description (c), any case
    expect((await ids('touhou')).ids).toEqual([a]); // English tag name of a Chinese title
    expect((await ids('東方')).ids).toEqual([a]); // Japanese tag name
    expect((await ids('千本桜')).ids).toEqual([b]);
    expect((await ids('study  BEATS')).ids).toEqual([c]); // every word must match
    expect((await ids('study 猫')).ids).toEqual([]);
    expect((await ids('%')).ids).toEqual([]);
    expect(await ids('guitar', '&page=2&pageSize=2')).toMatchObject({ count: 3 });
    expect((await ids('guitar', '&page=2&pageSize=2')).ids).toHaveLength(1);
    expect((await server.api('video/search?keyword=')).status).toBe(400);
    expect(pending).toBeGreaterThan(0);

    // A very common word ranks only its first candidates: text matches, then tag matches, newest
    // first, each with the flag of a tag match taken from the union that found it.
    const candidates = async (words: string[], cap: number) =>
      (
        await sql<{
          id: number;
          tag0: boolean;
          tag1?: boolean;
        }>`SELECT * FROM ${searchCandidates('video', words, cap)} c`.execute(server.db)
      ).rows.map((r) => [Number(r.id), r.tag0, ...(r.tag1 === undefined ? [] : [r.tag1])]);
    expect(await candidates(['guitar'], 2)).toEqual([
      [c, false],
      [b, true],
    ]);
    expect(await candidates(['guitar'], 10)).toEqual([
      [c, false],
      [b, true],
      [a, true],
    ]);
    expect(await candidates(['吉他', '东方'], 10)).toEqual([[a, true, true]]); // every word, each with its own flag

    const byTags = async (tagId: number[]) =>
      (await (await server.api('video/search/tag', json({ tagId }))).json()).videos
        .map((v: { videoId: number }) => v.videoId)
        .sort();
    expect(await byTags([guitar])).toEqual([a, b].sort());
    expect(await byTags([guitar, touhou])).toEqual([a]);
    const category = await (await server.api('video/category?category=anime')).json();
    expect(category.videos.map((v: { videoId: number }) => v.videoId)).toEqual(expect.arrayContaining([a, b, c, d]));
  });

  it('ranks a word by its title and tag rankings, kept on every review, edit, tag change, view and deletion (decision 0020)', async () => {
    const tag = async (name: string) =>
      (
        await (
          await server.api('video/tag/create', json({ tagNameList: [{ lang: 'zhs', tagName: [{ name }] }] }, uploader))
        ).json()
      ).tagId as number;
    const whale = await tag('鲸鱼合集');
    const sea = await tag('深海');
    const publish = async (title: string, description: string, tags: number[]) => {
      const { body } = await commit(
        server,
        uploader,
        commitBody(await checkedMedia(server, uploader), { title, description, videoTagList: tags }),
      );
      await server.api('video/pending/approved', json({ videoId: body.videoId }, admin));
      return body.videoId as number;
    };
    const v1 = await publish('鲸 walrus 1', '', []);
    const v2 = await publish('鲸 walrus 2', '', [whale]);
    const v3 = await publish('海豚 dolphin', '一头鲸', [whale]);
    const v4 = await publish('深海 walruses', 'whale song', [sea]);
    const v5 = await publish('鲸 pending', '', []);
    const views = (videoId: number, n: number) =>
      server.db.updateTable('videos').set({ watched_count: n }).where('video_id', '=', videoId).execute();
    const ids = async (keyword: string, query = '') => {
      const body = await (await server.api(`video/search?keyword=${encodeURIComponent(keyword)}${query}`)).json();
      return {
        ids: body.videos.map((v: { videoId: number }) => v.videoId) as number[],
        count: body.videosCount as number,
      };
    };
    // Title (newest first among equals), then tags, then the description.
    expect((await ids('鲸')).ids).toEqual([v5, v2, v1, v3]);
    // More popular first within a tier: v1 at 1000 views (bucket 10) passes v2 and v5.
    await views(v1, 1000);
    expect((await ids('鲸')).ids).toEqual([v1, v5, v2, v3]);
    await views(v1, 1001); // the same bucket: nothing moves
    expect((await ids('鲸')).ids).toEqual([v1, v5, v2, v3]);
    // An edit sends v5 back to review: out of every ranking until approved again, then with its new title.
    await server.api('video/update', json({ videoId: v5, title: '海豚 2' }, uploader));
    expect((await ids('鲸')).ids).toEqual([v1, v2, v3]);
    await server.api('video/pending/approved', json({ videoId: v5 }, admin));
    expect((await ids('海豚')).ids).toEqual([v5, v3]);
    // Tags replaced: v2 leaves the whale tag's ranking and joins the sea's.
    await server.api('video/update', json({ videoId: v2, videoTagList: [sea] }, uploader));
    await server.api('video/pending/approved', json({ videoId: v2 }, admin));
    expect((await ids('深海')).ids).toEqual([v4, v2]);
    expect((await ids('鲸鱼')).ids).toEqual([v3]);
    // Latin words through three-letter pieces, checked against the title: walrus is in v4's walruses too.
    expect((await ids('walrus')).ids).toEqual([v1, v4, v2]);
    expect(await ids('WALRUS', '&page=2&pageSize=2')).toEqual({ ids: [v2], count: 3 });
    expect((await ids('alr')).count).toBe(3);
    expect((await ids('whale')).ids).toEqual([v4]); // the description only
    // Deleted: gone from every ranking.
    await server.api('video/delete', json({ videoId: v1 }, uploader, 'DELETE'));
    expect((await ids('鲸')).ids).toEqual([v2, v3]);

    // What the triggers kept is what the rankings are when built afresh from the videos and tags.
    const kept = await sql<{ n: number }>`SELECT
      (SELECT count(*) FROM (SELECT term, bucket, video_id FROM video_title_terms EXCEPT
        SELECT term, search_bucket(v.watched_count), v.video_id FROM videos v, unnest(search_title_terms(v.search_text)) AS term WHERE v.status = 'approved') d)
      + (SELECT count(*) FROM (SELECT term, search_bucket(v.watched_count), v.video_id FROM videos v, unnest(search_title_terms(v.search_text)) AS term
        WHERE v.status = 'approved' EXCEPT SELECT term, bucket, video_id FROM video_title_terms) d)
      + (SELECT count(*) FROM (SELECT tag_id, bucket, video_id FROM video_tag_ranks EXCEPT
        SELECT t.tag_id, search_bucket(v.watched_count), v.video_id FROM videos v JOIN video_tags t ON t.video_id = v.video_id WHERE v.status = 'approved') d)
      + (SELECT count(*) FROM (SELECT t.tag_id, search_bucket(v.watched_count), v.video_id FROM videos v JOIN video_tags t ON t.video_id = v.video_id
        WHERE v.status = 'approved' EXCEPT SELECT tag_id, bucket, video_id FROM video_tag_ranks) d) AS n`.execute(
      server.db,
    );
    expect(Number(kept.rows[0]!.n)).toBe(0);
    expect(
      (
        await sql<{
          b: number[];
        }>`SELECT array[search_bucket(0), search_bucket(1), search_bucket(3), search_bucket(4), search_bucket(1000)] AS b`.execute(
          server.db,
        )
      ).rows[0]!.b,
    ).toEqual([0, 1, 2, 3, 10]);
  });

  it('finds every kind of search word through indexes, never by reading every video, track or photo post', async () => {
    // With sequential scans priced out, a plan that still reads a whole table has no index to use.
    const plans = await server.db.connection().execute(async (connection) => {
      await sql`SET enable_seqscan = off`.execute(connection);
      try {
        const found: string[] = [];
        for (const word of ['猫', '吉他', 'ギター', '千本桜', '기타', 'guitar', 'touhou', 'no such word']) {
          for (const [table, alias, kind] of [
            ['videos', 'v', 'video'],
            ['audio_tracks', 'a', 'audio'],
            ['photos', 'p', 'photo'],
          ] as const) {
            const plan = await connection
              .selectFrom(`${table} as ${alias}` as 'videos as v')
              .select(sql`1`.as('one'))
              .where(matchesSearchWord(kind, alias, word))
              .explain();
            found.push(`${word} in ${table}:\n${plan.map((row) => Object.values(row).join('')).join('\n')}`);
          }
        }
        return found;
      } finally {
        await sql`RESET enable_seqscan`.execute(connection);
      }
    });
    for (const plan of plans)
      expect(plan).not.toMatch(/Seq Scan on (videos|audio_tracks|photos|video_tags|audio_tags|photo_tags)\b/);
    expect(plans.join('\n')).toMatch(/_search_grams/); // the CJK words went through the pieces' index
  });

  it('keeps the stored search text in the same normal form as the query', () => {
    expect(searchTextOf('ＬＯＦＩ  Beats', 'ｱﾆﾒ\tＯＰ')).toBe('lofi beats\nアニメ op');
  });
});

describe.runIf(BACKENDS.includes('postgres'))('a database whose LC_CTYPE is not UTF-8', () => {
  it('is refused at start, because CJK search would silently never match', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const name = `kiraboshi_c_${randomBytes(5).toString('hex')}`;
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'`);
    try {
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      await expect(
        startServer({
          PORT: '0',
          HOST: '127.0.0.1',
          DATABASE_URL: url.toString(),
          SERVE_SITE: '0',
          LOG_LEVEL: 'error',
        }),
      ).rejects.toThrow(/LC_CTYPE is C, which is not a UTF-8 locale/);
    } finally {
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    }
  });
});
