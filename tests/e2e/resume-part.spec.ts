/**
 * Resuming a video of several parts: a member watches into P2, leaves, and comes back (a reload,
 * and opening the video without ?p); one press of play plays on from where they were, in P2,
 * as it does in P1. No console error or page error on the way.
 */
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL, adminRequest, makeClip, signUpByApi, waitForIslands } from './helpers.ts';

const video = (page: Page) => page.locator('video[data-video]');
const state = (page: Page) =>
  video(page).evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, paused: v.paused }));

/** A video of two parts (a short P1, a longer P2) published and approved through the API. */
async function publishTwoParts(page: Page): Promise<{ videoId: number; p1Seconds: number }> {
  const tus = { 'Tus-Resumable': '1.0.0' };
  const mediaIds: string[] = [];
  for (const [seconds, size] of [
    [4, '320x240'],
    [20, '320x180'],
  ] as const) {
    const bytes = await makeClip(seconds, size);
    const created = await page.request.post(`${E2E_BASE_URL}/api/video/tus`, {
      headers: {
        ...tus,
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `name ${btoa('part.mp4')},maxDurationSeconds ${btoa('1800')}`,
      },
    });
    const done = await page.request.patch(new URL(created.headers().location, E2E_BASE_URL).toString(), {
      headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      data: bytes,
    });
    mediaIds.push(done.headers()['stream-media-id']);
  }
  for (const mediaId of mediaIds) {
    await expect
      .poll(
        async () =>
          (await (await page.request.get(`${E2E_BASE_URL}/api/video/media/status?mediaId=${mediaId}`)).json()).status,
        { timeout: 90_000, intervals: [300] },
      )
      .toMatch(/^(probed|transcoding|playable|ready)$/);
  }
  const committed = await page.request.post(`${E2E_BASE_URL}/api/video/upload`, {
    data: {
      title: 'Two parts to resume',
      description: '',
      videoCategory: 'anime',
      copyright: 'original',
      ensureOriginal: true,
      videoTagList: [],
      pushToFeed: false,
      videoPart: mediaIds.map((mediaId, i) => ({ mediaId, videoPartTitle: `part ${i + 1}` })),
    },
  });
  const { videoId } = await committed.json();
  expect((await (await adminRequest()).post('/api/video/pending/approved', { data: { videoId } })).status()).toBe(200);
  let parts: Array<{ link: string | null; duration: number }> = [];
  await expect
    .poll(
      async () => {
        parts = (await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json()).video.videoPart;
        return parts.every((p) => p.link);
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(true);
  return { videoId, p1Seconds: parts[0].duration / 1000 };
}

const savedAnchor = async (page: Page, videoId: number) =>
  (await (await page.request.get(`${E2E_BASE_URL}/api/history/anchor?videoId=${videoId}`)).json()).anchor as
    | number
    | null;

/**
 * One press of the play button: playback goes on from `at`, and does not stay paused after the
 * seek. Reaching `at` + 0.5 sooner than that many seconds after the press means it did not play
 * there from the start.
 */
async function pressPlayOnceResumesAt(page: Page, at: number) {
  await waitForIslands(page);
  const pressed = Date.now();
  await page.locator('[data-play-button]').click();
  await expect.poll(async () => (await state(page)).time, { timeout: 20_000 }).toBeGreaterThan(at + 0.5);
  expect((Date.now() - pressed) / 1000).toBeLessThan(at + 0.5);
  expect((await state(page)).paused).toBe(false);
}

test('one press of play resumes P2 where the member left it, after a reload and from the plain address', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console.error: ${message.text()}`));
  await signUpByApi(page, 'Resumer');
  const { videoId, p1Seconds } = await publishTwoParts(page);

  await page.goto(`/en/video/kv${videoId}?p=2`);
  await waitForIslands(page);
  await page.locator('[data-play-button]').click();
  await expect.poll(async () => (await state(page)).time, { timeout: 20_000 }).toBeGreaterThan(6);
  await video(page).evaluate((v: HTMLVideoElement) => v.pause()); // a pause writes the position
  const left = (await state(page)).time;
  await expect.poll(() => savedAnchor(page, videoId)).toBeCloseTo(p1Seconds + left, 0);

  await page.reload();
  await pressPlayOnceResumesAt(page, left);
  await video(page).evaluate((v: HTMLVideoElement) => v.pause());
  const second = (await state(page)).time;
  await expect.poll(() => savedAnchor(page, videoId)).toBeCloseTo(p1Seconds + second, 0);

  // Opened without ?p, the page goes to the part of the saved position, and play resumes there too.
  await page.goto(`/en/video/kv${videoId}`);
  await expect(page).toHaveURL(/[?&]p=2/);
  await pressPlayOnceResumesAt(page, second);
  expect(errors).toEqual([]);
});
