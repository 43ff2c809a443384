/**
 * Photo posts (issue 13) through the real server: images uploaded by tus, committed as one
 * post, refused with a reason when they are not images, bombs, too large or too many; rendered
 * without GPS; private to the uploader and staff until approved; listed, searched, hidden by
 * block lists and deleted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import exifr from 'exifr';
import sharp from 'sharp';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { member, tusCreate, tusMetadata, tusPatch } from './media-helpers.ts';
import { jpegWithGps, plainPng, pngBomb } from '../fixtures/photos.ts';
import { PHOTO_MAX_BYTES, PHOTO_MAX_IMAGES } from '../../src/lib/api/contracts/photo.constants.ts';

describe.each(BACKENDS)('photo posts on %s', (backend) => {
  let server: TestServer;
  let uploader = '';
  let other = '';
  let admin = '';
  const send = (method: string, path: string, body: unknown, cookie?: string, locale?: string) =>
    jsonCall(server, path, { method, cookie, locale, body });
  const get = (path: string, cookie?: string) => jsonCall(server, path, { cookie });
  /** One image through the resumable endpoint, as the site's uploader sends it; answers its media id. */
  async function uploadImage(bytes: Buffer, cookie = uploader, name = 'photo.jpg'): Promise<string> {
    const created = await tusCreate(server, cookie, bytes.length, tusMetadata({ name, kind: 'photo' }));
    expect(created.status).toBe(201);
    const done = await tusPatch(server, created.headers.get('location')!, cookie, 0, new Uint8Array(bytes));
    expect(done.status).toBe(204);
    return done.headers.get('stream-media-id')!;
  }
  const post = (
    images: Array<{ mediaId: string; alt?: string }>,
    extra: Record<string, unknown> = {},
    cookie = uploader,
    locale?: string,
  ) =>
    send(
      'POST',
      'photo/upload',
      {
        title: 'Evening at the shrine',
        description: 'Lanterns',
        copyright: 'original',
        images: images.map((i, n) => ({ alt: `Lantern ${n + 1}`, ...i })),
        ...extra,
      },
      cookie,
      locale,
    );
  async function settled(photoId: number, cookie = uploader) {
    let photo: Record<string, any> = {};
    await expect
      .poll(
        async () => {
          photo = (await get(`photo?photoId=${photoId}`, cookie)).body.photo;
          return photo.status;
        },
        { timeout: 60_000, interval: 200 },
      )
      .not.toBe('processing');
    return photo;
  }

  beforeAll(async () => {
    server = await startTestServer(backend);
    uploader = await member(server, 'PhotoUploader');
    other = await member(server, 'PhotoViewer');
    admin = await member(server, 'PhotoAdmin', ['administrator']);
  });
  afterAll(() => server?.close());

  it('renders a three-image post without GPS, keeps it private until approved, then lists it', async () => {
    const images = [
      { mediaId: await uploadImage(await jpegWithGps(2000, 1300)), alt: 'A red lantern at dusk' },
      { mediaId: await uploadImage(await plainPng(900, 600), uploader, 'b.png'), alt: 'A blue sky' },
      { mediaId: await uploadImage(await plainPng(600, 900, '#2e8b57'), uploader, 'c.png'), alt: 'A green hedge' },
    ];
    const committed = await post(images, { keepCameraData: true });
    expect(committed.status).toBe(200);
    const { photoId } = committed.body;

    // Before approval: nobody but the uploader and staff; not listed.
    expect((await get(`photo?photoId=${photoId}`)).status).toBe(404);
    expect((await get(`photo?photoId=${photoId}`, other)).status).toBe(404);
    const photo = await settled(photoId);
    expect(photo.status).toBe('pending');
    expect(photo.images.map((i: any) => i.alt)).toEqual(['A red lantern at dusk', 'A blue sky', 'A green hedge']);
    expect(photo.images[0]).toMatchObject({
      width: 2000,
      height: 1300,
      widths: [320, 640, 1280],
      camera: { make: 'KiraCam', model: 'Star 24' },
    });
    expect(photo.images[0].placeholder).toMatch(/^data:image\/webp;base64,/);
    const jpeg = `${server.baseUrl}${photo.images[0].base}/1280.jpg`;
    expect((await fetch(jpeg)).status).toBe(404);
    expect((await fetch(jpeg, { headers: { Cookie: other } })).status).toBe(404);
    expect((await fetch(jpeg, { headers: { Cookie: uploader } })).status).toBe(200);
    expect((await get('photo/home')).body.photosCount).toBe(0);
    expect((await get(`photo/user?uid=${photo.uploaderInfo.uid}`, uploader)).body.photos[0]).toMatchObject({
      photoId,
      status: 'pending',
      imageCount: 3,
    });

    // The review queue, then approval.
    expect((await get('photo/pending', other)).status).toBe(403);
    const queue = (await get('photo/pending', admin)).body;
    expect(queue.photos.map((p: any) => p.photoId)).toContain(photoId);
    expect((await send('POST', 'photo/pending/approved', { photoId }, other)).status).toBe(403);
    expect((await send('POST', 'photo/pending/approved', { photoId }, admin)).status).toBe(200);

    // Public now: the post, its files, the lists, search.
    expect((await get(`photo?photoId=${photoId}`)).body.photo.status).toBe('approved');
    const served = await fetch(jpeg);
    expect(served.status).toBe(200);
    const bytes = Buffer.from(await served.arrayBuffer());
    // No GPS tag survives (nor any EXIF at all) in what the public downloads.
    const tags = await exifr.parse(bytes, { gps: true, tiff: true, exif: true }).catch(() => undefined);
    expect(tags?.latitude).toBeUndefined();
    expect(tags?.GPSLatitude).toBeUndefined();
    expect((await sharp(bytes).metadata()).exif).toBeUndefined();
    for (const format of ['avif', 'webp'])
      expect((await fetch(`${server.baseUrl}${photo.images[0].base}/320.${format}`)).status).toBe(200);
    const home = (await get('photo/home')).body;
    expect(home.photos[0]).toMatchObject({ photoId, title: 'Evening at the shrine', imageCount: 3 });
    expect(home.photos[0].cover.alt).toBe('A red lantern at dusk');
    expect(
      (await get(`photo/search?keyword=${encodeURIComponent('SHRINE')}`)).body.photos.map((p: any) => p.photoId),
    ).toEqual([photoId]);
    expect((await get(`photo/search?keyword=volcano`)).body.photosCount).toBe(0);

    // A member's visit goes into their history, listed with the videos (and found by its title).
    expect(
      (await send('POST', 'history/record', { videoId: photoId, mediaType: 'photo', anchor: 0 }, other)).body.recorded,
    ).toBe(true);
    const history = (await get(`history/filter?videoTitle=${encodeURIComponent('shrine')}`, other)).body.result;
    expect(history).toMatchObject([{ category: 'photo', id: photoId, title: 'Evening at the shrine' }]);
    expect(history[0].image).toMatch(/\/media\/photos\/\d+\/\d+\/320\.jpg$/);
    // Comments on a post: the same calls with mediaType photo.
    expect(
      (
        await send(
          'POST',
          'video/comment/emit',
          { videoId: photoId, mediaType: 'photo', text: 'Beautiful light' },
          other,
        )
      ).status,
    ).toBe(200);
    const comments = (await get(`video/comment?videoId=${photoId}&mediaType=photo`)).body;
    expect(comments.videoCommentCount).toBe(1);
    expect(comments.videoCommentList[0].commentRoute).toBe(`${photoId}.1`);
    // …and none of it on the video of the same number.
    expect((await get(`video/comment?videoId=${photoId}`)).status).toBe(404);

    // A viewer who blocks the uploader no longer sees the post in lists.
    expect((await send('POST', 'block/user', { blockUid: photo.uploaderInfo.uid }, other)).status).toBe(200);
    expect((await get('photo/home', other)).body.photosCount).toBe(0);
    expect((await get('photo/home')).body.photosCount).toBe(1);

    // Deleted: by the uploader (not by another member); gone everywhere, files included.
    expect((await send('DELETE', 'photo/delete', { photoId }, other)).status).toBe(403);
    expect((await send('DELETE', 'photo/delete', { photoId }, uploader)).status).toBe(200);
    expect((await get(`photo?photoId=${photoId}`, uploader)).status).toBe(404);
    expect((await fetch(jpeg)).status).toBe(404);
  });

  it('refuses a decompression bomb, a file that is not an image, another format, and one over 50 MB, naming the image', async () => {
    const good = await uploadImage(await plainPng(400, 300));
    const bomb = await uploadImage(pngBomb(), uploader, 'bomb.png');
    const refused = await post([{ mediaId: good }, { mediaId: bomb }], {}, uploader, 'ja');
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ code: 'TOO_MANY_PIXELS', imageIndex: 1 });
    expect(refused.body.message).toMatch(/[\u3040-\u30ff\u4e00-\u9fff]/); // in the caller's language

    const text = await uploadImage(Buffer.from('not a picture at all, only words'), uploader, 'fake.jpg');
    expect((await post([{ mediaId: text }])).body).toMatchObject({ code: 'NOT_AN_IMAGE', imageIndex: 0 });
    const tiff = await uploadImage(
      await sharp(await plainPng(50, 50))
        .tiff()
        .toBuffer(),
      uploader,
      'scan.tiff',
    );
    const wrongFormat = await post([{ mediaId: tiff }]);
    expect(wrongFormat.status).toBe(415);
    expect(wrongFormat.body.code).toBe('UNSUPPORTED_IMAGE_FORMAT');
    // Over 50 MB: refused when the upload is announced, before a byte is sent.
    const tooLarge = await tusCreate(
      server,
      uploader,
      PHOTO_MAX_BYTES + 1,
      tusMetadata({ name: 'huge.jpg', kind: 'photo' }),
    );
    expect(tooLarge.status).toBe(413);
    expect((await tooLarge.json()).code).toBe('PAYLOAD_TOO_LARGE');
    // The probe tells the uploader early (the media status) that the bomb will be refused.
    await expect
      .poll(async () => (await get(`video/media/status?mediaId=${bomb}`, uploader)).body.status, { timeout: 30_000 })
      .toBe('rejected');
    // A video's upload is not an image of a post.
    const video = await tusCreate(server, uploader, 10, tusMetadata({ name: 'clip.mp4' }));
    const videoMedia = (
      await tusPatch(server, video.headers.get('location')!, uploader, 0, new Uint8Array(10))
    ).headers.get('stream-media-id')!;
    expect((await post([{ mediaId: videoMedia }])).body.issues[0].path).toBe('images.0.mediaId');
    // Nothing was created by any refusal; the good image is still free to use.
    expect(await server.db.selectFrom('photos').select('photo_id').execute()).toHaveLength(1); // the first test's (deleted) post
    expect((await post([{ mediaId: good }])).status).toBe(200);
  });

  it('refuses more than thirty images, none, an image without alt text, the same file twice, and someone else’s upload', async () => {
    const media = await uploadImage(await plainPng(100, 100));
    const tooMany = await post(
      Array.from({ length: PHOTO_MAX_IMAGES + 1 }, (_, n) => ({ mediaId: n.toString(16).padStart(24, '0') })),
    );
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.issues.map((i: any) => i.path)).toContain('images');
    expect((await post([])).status).toBe(400);
    const noAlt = await post([{ mediaId: media, alt: '   ' }]);
    expect(noAlt.status).toBe(400);
    expect(noAlt.body.issues.map((i: any) => i.path)).toContain('images.0.alt');
    expect((await post([{ mediaId: media }, { mediaId: media }])).status).toBe(400);
    expect((await post([{ mediaId: media }], {}, other)).status).toBe(403);
    expect((await post([{ mediaId: media }], { copyright: 'repost' })).body.issues.map((i: any) => i.path)).toContain(
      'originalAuthor',
    );
    expect((await post([{ mediaId: media }], {}, '')).status).toBe(401);
    // Committed once; a second commit of the same file is a conflict.
    expect((await post([{ mediaId: media }])).status).toBe(200);
    expect((await post([{ mediaId: media }])).status).toBe(409);
  });
});
