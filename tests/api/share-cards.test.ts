/**
 * The card a link shows when pasted into a chat or forum (issue 28), read by a real OpenGraph
 * parser (open-graph-scraper) on every page type — home, category, tag, user, video, track, photo
 * post and collection — in all nine catalog languages: the title, type, canonical address in that
 * language and og:locale are there, and the picture is absolute and answers 200 as an image (real
 * JPEGs made by ffmpeg in the server's media folder; the site card from the build). One server per
 * database, with the built site (npm run build first).
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ogs from 'open-graph-scraper';
import { BACKENDS, jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertPhoto, insertVideo, member } from './media-helpers.ts';
import { CATALOG_LOCALES, LOCALE_INFO, localizePath } from '../../src/lib/i18n/locales.ts';
import { ogLocale } from '../../src/lib/share/share.ts';
import { binaryPath, run } from '../../server/media/ffmpeg.ts';

/** A real JPEG of the given size at MEDIA_DIR/{path}. */
async function writeJpeg(mediaDir: string, path: string, size: string) {
  const file = join(mediaDir, path);
  await mkdir(dirname(file), { recursive: true });
  const made = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${size}:rate=1`,
    '-frames:v',
    '1',
    file,
  ]);
  if (made.code !== 0) throw new Error(made.stderr);
}

describe.each(BACKENDS)('share cards on every page type in every language on %s', (backend) => {
  let server: TestServer;
  let mediaDir = '';
  const pages: Array<{ route: string; type: string; title?: string; image?: RegExp }> = [];

  beforeAll(async () => {
    mediaDir = await mkdtemp(join(tmpdir(), 'kiraboshi-cards-'));
    server = await startTestServer(backend, { site: true, env: { MEDIA_DIR: mediaDir } });
    const cookie = await member(server, `Carder${backend}`);
    const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
    // A video with a poster set (the card takes its 1280 px JPEG), a track with a cover, a photo post rendered at 320 and 640.
    const video = await insertVideo(server, cookie, 30_000);
    const posterSet = `images/covers/${uid}-card/poster-0123456789ab`;
    await writeJpeg(mediaDir, `${posterSet}-1280.jpg`, '1280x720');
    await server.db
      .updateTable('videos')
      .set({ title: 'Card video', cover: `/media/${posterSet}-640.jpg` })
      .where('video_id', '=', video)
      .execute();
    const track = await insertAudio(server, cookie, 20_000);
    await writeJpeg(mediaDir, `images/covers/${uid}-track.jpg`, '600x600');
    await server.db
      .updateTable('audio_tracks')
      .set({ title: 'Card track', cover: `/media/images/covers/${uid}-track.jpg` })
      .where('audio_id', '=', track)
      .execute();
    const photo = await insertPhoto(server, cookie);
    await server.db.updateTable('photos').set({ title: 'Card photo' }).where('photo_id', '=', photo).execute();
    const { image_id: imageId } = await server.db
      .selectFrom('photo_images')
      .select('image_id')
      .where('photo_id', '=', photo)
      .executeTakeFirstOrThrow();
    await writeJpeg(mediaDir, `photos/${photo}/${imageId}/640.jpg`, '640x480');
    const tag = await jsonCall(server, 'video/tag/create', {
      method: 'POST',
      cookie,
      body: { tagNameList: [{ lang: 'en', tagName: [{ name: 'Card tag' }] }] },
    });
    const { tagId } = tag.body as { tagId: number };
    await server.db.insertInto('video_tags').values({ video_id: video, tag_id: tagId, position: 0 }).execute();
    const made = await jsonCall(server, 'collection/create', {
      method: 'POST',
      cookie,
      body: { title: 'Card collection', description: 'Clips to share', visibility: 'public' },
    });
    const { collectionId } = (made.body as { collection: { collectionId: number } }).collection;
    expect(
      (
        await jsonCall(server, 'collection/addVideo', {
          method: 'POST',
          cookie,
          body: { collectionId, videoId: video },
        })
      ).status,
    ).toBe(200);
    pages.push(
      { route: '/', type: 'website' },
      { route: '/category', type: 'website' },
      { route: `/search?tag=${tagId}`, type: 'website' },
      { route: `/user/${uid}`, type: 'profile' },
      {
        route: `/video/kv${video}`,
        type: 'video.other',
        title: 'Card video',
        image: /\/poster-0123456789ab-1280\.jpg$/,
      },
      {
        route: `/audio/ka${track}`,
        type: 'music.song',
        title: 'Card track',
        image: new RegExp(`/images/covers/${uid}-track\\.jpg$`),
      },
      {
        route: `/photo/kp${photo}`,
        type: 'article',
        title: 'Card photo',
        image: new RegExp(`/photos/${photo}/${imageId}/640\\.jpg$`),
      },
      {
        route: `/collections/${collectionId}`,
        type: 'website',
        title: 'Card collection',
        image: /\/poster-0123456789ab-1280\.jpg$/,
      },
    );
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await rm(mediaDir, { recursive: true, force: true });
  });

  it('has a card an OpenGraph parser reads, with an absolute picture answering as an image, on every page in every language', async () => {
    const checkedImages = new Map<string, string>();
    for (const locale of CATALOG_LOCALES) {
      for (const { route, type, title, image: imagePattern } of pages) {
        const path = localizePath(route, locale);
        const answer = await fetch(`${server.baseUrl}${path}`, {
          headers: { 'Accept-Language': LOCALE_INFO[locale].htmlLang },
        });
        expect(answer.status, path).toBe(200);
        const { error, result } = await ogs({ html: await answer.text() });
        expect(error, path).toBe(false);
        expect(result.ogTitle, path).toBeTruthy();
        if (title) expect(result.ogTitle, path).toBe(title);
        expect(result.ogDescription, path).toBeTruthy();
        expect(result.ogType, path).toBe(type);
        expect(result.ogLocale, path).toBe(ogLocale(locale));
        const canonical = new URL(result.ogUrl ?? '', 'invalid:/');
        expect(canonical.protocol, path).toMatch(/^https?:$/);
        expect(`${canonical.pathname}${canonical.search}`, path).toBe(path);
        expect(result.twitterCard, path).toBe(
          type === 'video.other' || type === 'music.song' ? 'player' : 'summary_large_image',
        );
        const image = result.ogImage?.[0]?.url ?? '';
        expect(image, path).toMatch(/^https?:\/\//);
        expect(result.twitterImage?.[0]?.url, path).toBe(image);
        if (imagePattern) expect(image, path).toMatch(imagePattern);
        if (!checkedImages.has(image)) {
          const picture = await fetch(new URL(new URL(image).pathname, server.baseUrl));
          expect(picture.status, `${path}: ${image}`).toBe(200);
          checkedImages.set(image, picture.headers.get('content-type') ?? '');
          await picture.arrayBuffer();
        }
        expect(checkedImages.get(image), `${path}: ${image}`).toMatch(/^image\/(jpeg|png|webp)$/);
      }
    }
    // The site card, the poster, the cover and the photo: each page type's own picture was fetched.
    expect(checkedImages.size).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
