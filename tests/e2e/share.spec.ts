/**
 * Sharing outside the site (issue 28) as a visitor meets it: the card a pasted link shows, read by
 * a real OpenGraph parser on every page type in three languages (title, an absolute picture that
 * answers 200 as an image); the embed inside an iframe of another origin (a page served from a
 * second loopback port) playing with danmaku; a shared `?t=` link starting there; the share menu.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import ogs from 'open-graph-scraper';
import { expect, test, type Browser, type Page } from '@playwright/test';
import {
  E2E,
  E2E_BASE_URL,
  localized,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  signUpByApi,
  waitForIslands,
  type LocaleCode,
} from './helpers.ts';

interface Snapshot {
  items: Array<{ text: string }>;
}
let videoId = 0;
let audioId = 0;
let photoId = 0;
let uploaderUid = 0;
let other: Server;
let otherOrigin = '';
const SHOTS = join(E2E, 'shots');

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  const page = await (await browser.newContext({ baseURL: E2E_BASE_URL })).newPage();
  ({ uid: uploaderUid } = await signUpByApi(page, 'Sharer'));
  ({ videoId } = await publishVideoByApi(page, {
    title: 'Share me',
    description: 'A clip to pass around',
    seconds: 12,
  }));
  for (const [time, text] of [
    [0.3, 'from the start'],
    [0.8, 'still early'],
  ] as const) {
    for (;;) {
      const sent = await page.request.post(`${E2E_BASE_URL}/api/video/danmaku/emit`, {
        data: { videoId, time, text, color: 'ffffff' },
      });
      if (sent.ok()) break;
      if (sent.status() !== 429) throw new Error(`emit answered ${sent.status()}`);
      await new Promise((resolve) => setTimeout(resolve, Number(sent.headers()['retry-after'] ?? 1) * 1000));
    }
  }
  ({ audioId } = await publishAudioByApi(page, { title: 'Share tone', seconds: 6 }));
  ({ photoId } = await publishPhotoByApi(page, { title: 'Share picture' }));
  // The other site: a page that embeds what its query names, with the code the share menu copies.
  other = createServer((req, res) => {
    const src = new URL(req.url ?? '/', 'http://x').searchParams.get('embed') ?? '';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>A blog</title><h1>My blog</h1><iframe id="embed" src="${E2E_BASE_URL}${src}" width="640" height="360" style="border:0" allow="autoplay; fullscreen; picture-in-picture" allowfullscreen></iframe>`,
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  mkdirSync(SHOTS, { recursive: true });
});
test.afterAll(() => new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve())));

const CARD_LOCALES: LocaleCode[] = ['zhs', 'en', 'ja'];

test('every page type has a card a real OpenGraph parser reads, with an absolute picture that answers as an image', async ({
  request,
}) => {
  test.setTimeout(120_000);
  const pages: Array<[string, string]> = [
    ['/', 'website'],
    ['/category', 'website'],
    ['/welcome', 'website'],
    [`/user/${uploaderUid}`, 'profile'],
    [`/video/kv${videoId}`, 'video.other'],
    [`/audio/ka${audioId}`, 'music.song'],
    [`/photo/kp${photoId}`, 'article'],
  ];
  const checkedImages = new Set<string>();
  for (const locale of CARD_LOCALES) {
    for (const [route, type] of pages) {
      const path = localized(route, locale);
      const html = await (await request.get(path)).text();
      const { result } = await ogs({ html });
      expect(result.ogTitle, path).toBeTruthy();
      expect(result.ogType, path).toBe(type);
      expect(result.ogUrl, path).toMatch(/^https?:\/\//);
      expect(new URL(result.ogUrl!).pathname, path).toBe(new URL(path, E2E_BASE_URL).pathname);
      expect(result.ogLocale, path).toMatch(/^[a-z]{2}_[A-Z]{2}$/);
      const image = result.ogImage?.[0]?.url ?? '';
      expect(image, path).toMatch(/^https?:\/\//);
      // Prerendered pages carry the build's site address (PUBLIC_SITE_URL); the test server answers its path.
      const served = new URL(new URL(image).pathname, E2E_BASE_URL).href;
      if (!checkedImages.has(served)) {
        const answer = await request.get(served);
        expect(answer.status(), `${path}: ${image}`).toBe(200);
        expect(answer.headers()['content-type'], `${path}: ${image}`).toMatch(/^image\//);
        checkedImages.add(served);
      }
      if (type === 'video.other') {
        expect(result.twitterCard).toBe('player');
        expect(result.ogVideo?.[0]?.url).toBe(`${E2E_BASE_URL}/embed/kv${videoId}`);
        expect(result.twitterPlayer?.[0]).toMatchObject({
          url: `${E2E_BASE_URL}/embed/kv${videoId}`,
          width: '640',
          height: '360',
        });
        // The poster, 1280 px wide, not the site's card.
        expect(image).toMatch(/poster-[0-9a-f]{12}-1280\.jpg$/);
      }
    }
  }
});

const embedFrame = (page: Page) => page.frameLocator('#embed');
const stageOf = (page: Page) =>
  embedFrame(page)
    .locator('canvas.embed-danmaku')
    .evaluate((c) => (c as unknown as { danmakuSnapshot: Snapshot }).danmakuSnapshot);

// Media flows on a 2-core machine shared with other work: the limits catch hangs, every wait is on a state.
test('the embed plays with its danmaku inside an iframe of another site', async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${otherOrigin}/?embed=${encodeURIComponent(`/embed/kv${videoId}?autoplay=1`)}`);
  const video = embedFrame(page).locator('video');
  // Playing by itself (muted autoplay), not merely positioned: paused stays false and the clock moves.
  await expect
    .poll(
      () =>
        video.evaluate(
          (v: HTMLVideoElement) =>
            `${v.paused ? 'paused' : 'playing'} ${v.currentTime > 0.4 ? 'moving' : `at ${v.currentTime} ready ${v.readyState}`}`,
        ),
      { timeout: 90_000 },
    )
    .toBe('playing moving');
  expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await expect
    .poll(async () => (await stageOf(page)).items.map((i) => i.text), { timeout: 10_000 })
    .toContain('from the start');
  await expect(embedFrame(page).locator('[data-embed-link]')).toHaveAttribute(
    'href',
    new RegExp(`/video/kv${videoId}$`),
  );
  await page.screenshot({ path: join(SHOTS, 'embed-in-blog-1280.png') });
  expect(errors).toEqual([]);
});

test('the embed can start with danmaku off and at a moment; a missing one says so at its size', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 375, height: 700 });
  await page.goto(`${otherOrigin}/?embed=${encodeURIComponent(`/embed/kv${videoId}?danmaku=0&t=6&autoplay=1`)}`);
  const video = embedFrame(page).locator('video');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 90_000 })
    .toBeGreaterThanOrEqual(6);
  await expect(embedFrame(page).locator('[data-embed-danmaku]')).toHaveAttribute('aria-pressed', 'false');
  await page.screenshot({ path: join(SHOTS, 'embed-in-blog-375.png') });
  await page.goto(`${otherOrigin}/?embed=${encodeURIComponent('/embed/kv999999')}`);
  await expect(embedFrame(page).locator('[data-embed-missing]')).toBeVisible();
});

test("a track's embed fetches nothing of its stream until the pointer comes, then plays with one click", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const streamed: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/stream.m4a')) streamed.push(request.url());
  });
  await page.goto(`${otherOrigin}/?embed=${encodeURIComponent(`/embed/ka${audioId}`)}`);
  const audio = embedFrame(page).locator('audio');
  await expect(audio).toHaveAttribute('src', /stream\.m4a$/);
  await page.waitForLoadState('networkidle');
  expect(streamed).toEqual([]);
  // The pointer over the embed is the intent: the browser reads the track's length.
  await audio.hover();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => Math.round(a.duration)), { timeout: 30_000 }).toBe(6);
  // The play button of the browser's own controls, at their left end.
  const { height } = (await audio.boundingBox())!;
  await audio.click({ position: { x: 20, y: height / 2 } });
  await expect
    .poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 30_000 })
    .toBeGreaterThan(0.3);
  await page.screenshot({ path: join(SHOTS, 'track-embed-in-blog-1280.png') });
});

test('a shared ?t= link starts the video there', async ({ page }) => {
  test.setTimeout(180_000);
  await page.goto(`/en/video/kv${videoId}?t=5`);
  await waitForIslands(page);
  await page.locator('[data-player] .player-main').hover();
  await page.locator('[data-play-button]').click();
  await expect
    .poll(() => page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(5);
});

test('the share menu copies the link, the link at the moment and the embed code, and closes on Esc and outside', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: E2E_BASE_URL });
  await page.goto(`/en/video/kv${videoId}?t=4`);
  await waitForIslands(page);
  await page.locator('[data-player] .player-main').hover();
  await page.locator('[data-play-button]').click();
  await expect
    .poll(() => page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 60_000 })
    .toBeGreaterThanOrEqual(4);
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.pause());
  const button = page.locator('[data-share-button]');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await button.click();
  await expect(page.locator('[data-share-list]')).toBeVisible();
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
    await button.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, `share-menu-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.locator('[data-share-copy-link]').click();
  await expect.poll(clipboard).toBe(`${E2E_BASE_URL}/en/video/kv${videoId}`);
  await expect(page.locator('[data-share-list]')).toBeHidden();

  await button.click();
  await page.locator('[data-share-copy-time]').click();
  await expect.poll(clipboard).toMatch(new RegExp(`/en/video/kv${videoId}\\?t=[4-9]$`));

  await button.click();
  await page.locator('[data-share-copy-embed]').click();
  await expect.poll(clipboard).toContain(`<iframe src="${E2E_BASE_URL}/embed/kv${videoId}"`);

  await button.click();
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-share-list]')).toBeHidden();
  await expect(button).toBeFocused();
  await button.click();
  await page.locator('h1.video-title').click();
  await expect(page.locator('[data-share-list]')).toBeHidden();
});
