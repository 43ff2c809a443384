/**
 * The upload flow in the browser: a member uploads a real clip over tus (paused, resumed, and
 * resumed again after a reload from the server's offset), sets a cover and tags, and publishes;
 * the administrator approves it in Settings > Content. Also the refusals before any byte is sent.
 * SHOTS=<dir> saves screenshots of each step at 375 and 1280 px.
 */
import { test, expect, type Page, type CDPSession } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  E2E_BASE_URL,
  adminRequest,
  makePicture,
  logInAsAdmin,
  makeClip,
  msg,
  shoot,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';
import { damageMediaData } from '../fixtures/damaged-video.ts';

test.describe.configure({ mode: 'serial' });

const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-upload-e2e-'));

const bytesUploaded = (page: Page) =>
  page.locator('[data-upload-state]').getAttribute('data-bytes-uploaded').then(Number);
/** Upload bandwidth of the page's network, bytes per second (-1: unthrottled). */
const throttle = (cdp: CDPSession, uploadThroughput: number) =>
  cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput,
  });

test('guests are asked to log in; without a file the toast says so; a file that is no video is refused before upload', async ({
  page,
}) => {
  await page.goto('/upload');
  await expect(page.locator('[data-uploader="guest"]')).toContainText(msg('zhs', 'upload.loginRequired'));

  await signUpByApi(page, '上传测试');
  await page.reload();
  await waitForIslands(page);
  await expect(page.locator('[data-uploader="choose"]')).toBeVisible();
  await shoot(page, 'upload-empty');

  await page.locator('[data-start]').click();
  await expect(page.locator('.toast')).toContainText(msg('zhs', 'upload.fileNotFound'));

  const fake = join(dir, 'notes.mp4');
  writeFileSync(fake, 'these are meeting notes, not a video\n'.repeat(200));
  const tusRequests: string[] = [];
  page.on('request', (r) => r.url().includes('/video/tus') && tusRequests.push(r.method()));
  await page.locator('input[name="video"]').setInputFiles(fake);
  const refusal = page.locator('[data-refusal="NOT_A_VIDEO"]');
  await expect(refusal).toHaveText(msg('zhs', 'upload.reason.NOT_A_VIDEO'), { timeout: 15_000 });
  await expect(page.locator('[data-start]')).toBeDisabled();
  await shoot(page, 'upload-refused');
  expect(tusRequests).toEqual([]);
});

test('a file the browser check accepts but the server refuses while processing shows the reason in the page’s language', async ({
  page,
}) => {
  test.setTimeout(60_000);
  // Whole header (duration, size, codecs) and damaged frames: mediainfo.js only reads the header.
  const damaged = join(dir, 'damaged.mp4');
  writeFileSync(damaged, damageMediaData(await makeClip(6, '640x360')));
  await signUpByApi(page, 'アップローダー');
  await page.goto('/ja/upload');
  await waitForIslands(page);
  await page.locator('input[name="video"]').setInputFiles(damaged);
  await expect(page.locator('[data-check="ok"]')).toContainText('AVC', { timeout: 15_000 });
  await page.locator('[data-start]').click();
  await expect(page.locator('[data-upload-state]')).toHaveAttribute('data-upload-state', 'success', {
    timeout: 30_000,
  });
  const processing = page.locator('[data-media-status]');
  await expect(processing).toHaveAttribute('data-media-status', 'rejected', { timeout: 30_000 });
  await expect(processing.locator('[data-refusal="CORRUPT"]')).toHaveText(msg('ja', 'upload.reason.CORRUPT'));
  // Nothing to publish; starting over is offered.
  await expect(page.locator('[data-upload-form]')).toHaveCount(0);
  await expect(processing.getByRole('button', { name: msg('ja', 'upload.another') })).toBeVisible();
  await shoot(page, 'upload-refused-by-server');
});

test('a member uploads a clip with pause, resume and a reload, sets cover and tags, publishes; the administrator approves it', async ({
  page,
  browser,
}) => {
  // 50–60 s on a machine at load 10: a throttled upload, a transcode, a review. The limit is for hangs.
  test.setTimeout(150_000);
  const clip = join(dir, 'my clip.mp4');
  writeFileSync(clip, await makeClip(20, '1280x720'));
  const picture = await makePicture(dir);
  const existingTag = `e2e既有${randomBytes(2).toString('hex')}`;
  const admin = await adminRequest();
  await admin.post('/api/video/tag/create', {
    data: {
      tagNameList: [{ lang: 'zhs', tagName: [{ name: existingTag, isDefault: true, isOriginalTagName: true }] }],
    },
  });

  await signUpByApi(page, '投稿者');
  await page.goto('/upload');
  await waitForIslands(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await throttle(cdp, 1_000_000);

  // Chosen and checked in the browser (mediainfo.js), then uploaded.
  await page.locator('input[name="video"]').setInputFiles(clip);
  await expect(page.locator('[data-check="ok"]')).toContainText('AVC', { timeout: 15_000 });
  await page.locator('[data-start]').click();
  const progress = page.locator('[data-upload-state]');
  await expect(progress).toHaveAttribute('data-upload-state', 'uploading');
  await expect.poll(() => bytesUploaded(page), { timeout: 15_000 }).toBeGreaterThan(1_500_000);
  await expect(page.locator('[data-speed]')).toBeVisible();
  await shoot(page, 'upload-uploading');

  // Pause stops the bytes; resume goes on from the server's offset.
  await page.locator('[data-pause]').click();
  await expect(progress).toHaveAttribute('data-upload-state', 'pausing');
  await expect(page.locator('[data-pause]')).toHaveCount(0);
  const paused = await bytesUploaded(page);
  await page.waitForTimeout(700);
  expect(await bytesUploaded(page)).toBe(paused);
  await page.locator('[data-resume]').click();
  await expect(progress).toHaveAttribute('data-upload-state', 'uploading');
  await expect.poll(() => progress.getAttribute('data-resumed-from').then(Number)).toBeGreaterThan(0);
  await expect.poll(() => bytesUploaded(page), { timeout: 15_000 }).toBeGreaterThan(paused + 1_000_000);

  // A reload mid-upload: choosing the same file goes on from the server's offset, not from 0.
  await page.reload();
  await waitForIslands(page);
  await page.locator('input[name="video"]').setInputFiles(clip);
  await expect(page.locator('[data-check="ok"]')).toBeVisible({ timeout: 15_000 });
  await page.locator('[data-start]').click();
  await expect
    .poll(() => progress.getAttribute('data-resumed-from').then(Number), { timeout: 10_000 })
    .toBeGreaterThan(1_000_000);
  await expect(page.locator('[data-resumed]')).toBeVisible();
  await throttle(cdp, -1);
  await expect(progress).toHaveAttribute('data-upload-state', 'success', { timeout: 30_000 });

  // The form: cover (cropped to 16:9 in the browser), tags found and created, the rest.
  const form = page.locator('[data-upload-form]');
  await page.locator('input[name="cover"]').setInputFiles(picture);
  await expect(page.locator('[data-cropper]')).toBeVisible();
  await page.locator('[data-cropper] .button').first().click();
  // The server makes the cover's whole poster set (four sizes, AVIF among them) while the clip
  // transcodes beside it: on a busy 2-core machine that passed 15 s ("正在上传封面…" still shown).
  await expect(page.locator('[data-cover-preview="cover"]')).toBeVisible({ timeout: 45_000 });
  // The preview is the cover's 640 px JPEG, one of its poster set (320/640/960/1280, AVIF/WebP/JPEG).
  const size = await page
    .locator('[data-cover-preview="cover"]')
    .evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]);
  expect(size).toEqual([640, 360]);

  const tagInput = form.locator('input[name="tagSearch"]');
  await tagInput.fill(existingTag);
  await form.getByRole('option', { name: existingTag }).click();
  const newTag = `新标签${randomBytes(2).toString('hex')}`;
  await tagInput.fill(newTag);
  await form.locator('[data-create-tag]').click();
  await expect(form.locator('[data-picked-tags] li')).toHaveCount(2);
  await expect(form.locator('[data-picked-tags]')).toContainText(newTag);

  const title = `浏览器投稿 ${randomBytes(3).toString('hex')}`;
  await form.locator('input[name="title"]').fill(title);
  await form.locator('textarea[name="description"]').fill('用浏览器上传的测试视频');
  await form.locator('select[name="videoCategory"]').selectOption('music');
  // A field the server refuses is shown at the field, in the page's language.
  await form.locator('input[name="copyright"][value="authorized-repost"]').check();
  await form.locator('input[name="originalLink"]').fill('ftp://example.com/original');
  await form.locator('[data-submit]').click();
  await expect(form.locator('[data-field-error="originalLink"]')).toHaveText(msg('zhs', 'upload.invalid.originalLink'));
  await form.locator('input[name="copyright"][value="original"]').check();
  await form.locator('input[name="ensureOriginal"]').check();
  await expect(page.locator('[data-media-status]')).toHaveAttribute(
    'data-media-status',
    /probed|transcoding|playable|ready/,
    { timeout: 30_000 },
  );
  await shoot(page, 'upload-form');
  await form.locator('[data-submit]').click();

  const link = page.locator('[data-video-link]');
  await expect(link).toBeVisible({ timeout: 15_000 });
  const videoId = Number(/kv(\d+)$/.exec((await link.getAttribute('href'))!)![1]);
  await expect(page.locator('[data-uploader="done"]')).toContainText(msg('zhs', 'upload.doneText'));
  await shoot(page, 'upload-done');
  // Pending: its uploader sees it, a guest does not.
  expect((await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json()).video.status).toBe(
    'pending',
  );

  // The administrator approves it in Settings > Content.
  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await logInAsAdmin(adminPage);
  await adminPage.goto('/settings/content');
  await waitForIslands(adminPage);
  const item = adminPage.locator(`[data-video-id="${videoId}"]`);
  await expect(item).toContainText(title);
  await expect(item).toContainText(newTag);
  await expect(item).toContainText(msg('zhs', 'video.categories.music'));
  await shoot(adminPage, 'settings-content');
  await item.locator('[data-approve]').click();
  await expect(adminPage.locator('.toast')).toContainText(
    msg('zhs', 'videoReview.approved').replace('{{id}}', String(videoId)),
  );
  await expect(item).toHaveCount(0);

  const guest = await browser.newContext();
  const answer = await (await guest.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json();
  expect(answer.video).toMatchObject({
    videoId,
    title,
    status: 'approved',
    image: expect.stringMatching(/^\/media\/images\/covers\//),
  });
  expect(answer.video.videoTagList).toHaveLength(2);
  // Its card shows the cover in every size and format (the uploader's page is rendered on request).
  const guestPage = await guest.newPage();
  await guestPage.goto(`/user/${answer.video.uploaderId}`);
  const card = guestPage.locator(`.video-card[data-video-id="${videoId}"]`);
  const cover = (answer.video.image as string).replace(/-640\.jpg$/, '');
  await expect(card.locator('img')).toHaveAttribute(
    'srcset',
    `${cover}-320.jpg 320w, ${cover}-640.jpg 640w, ${cover}-960.jpg 960w, ${cover}-1280.jpg 1280w`,
  );
  await expect(card.locator('source[type="image/avif"]')).toHaveAttribute(
    'srcset',
    new RegExp(`^${cover}-320\\.avif 320w, .*-1280\\.avif 1280w$`),
  );
  await expect
    .poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
    .toBe(true);
  await guest.close();
  await adminContext.close();
});
