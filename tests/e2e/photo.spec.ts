/**
 * The photo section as people use it: a member uploads a post of three images through
 * /upload/photo (alt text required, with a reminder), an administrator approves it on the review
 * page, and a visitor opens the viewer: zoom by double-click, wheel and pinch, swipe, keys.
 */
import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { logInAsAdmin, shoot, signUpByApi, waitForIslands, waitForShell } from './helpers.ts';

test.describe.configure({ timeout: 120_000 });

const image = async (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

const viewer = (page: Page) => page.locator('[data-photo-viewer]');
const scaleOf = async (page: Page) => Number(await viewer(page).getAttribute('data-scale'));

test('upload a three-image post, approve it, then zoom and swipe through it in the viewer', async ({
  browser,
  page,
}) => {
  await signUpByApi(page, 'Illustrator');
  await page.goto('/en/upload/photo');
  await waitForIslands(page);
  await page.locator('[data-photo-files]').setInputFiles([
    { name: 'dawn.jpg', mimeType: 'image/jpeg', buffer: await image(1600, 1000, '#e0457b') },
    { name: 'noon.jpg', mimeType: 'image/jpeg', buffer: await image(1000, 1500, '#3a7bd5') },
    { name: 'dusk.jpg', mimeType: 'image/jpeg', buffer: await image(1200, 1200, '#2e8b57') },
  ]);
  // Each image is uploaded and checked by the server at once.
  await expect(page.locator('.photo-entry[data-phase="ready"]')).toHaveCount(3, { timeout: 60_000 });
  await page.locator('[data-photo-title]').fill('Three times of day');
  // Publishing without alt texts is held back, with the reminder counting what is missing.
  await page.locator('[data-photo-publish]').click();
  await expect(page.locator('[data-alt-reminder]')).toContainText('3');
  const alts = ['A pink sky at dawn', 'A tall blue sky at noon', 'A green square at dusk'];
  for (const [n, alt] of alts.entries()) await page.locator('[data-alt-input]').nth(n).fill(alt);
  await expect(page.locator('[data-alt-reminder]')).toHaveCount(0);
  await shoot(page, 'photo-upload');
  await page.locator('[data-photo-publish]').click();
  const open = page.locator('[data-photo-uploader="done"] a.button');
  await expect(open).toBeVisible({ timeout: 30_000 });
  const photoId = Number(/kp(\d+)/.exec((await open.getAttribute('href'))!)![1]);

  // Not public yet: a visitor is sent to the error page.
  const visitor = await browser.newPage();
  await visitor.goto(`/en/photo/kp${photoId}`);
  await expect(visitor).toHaveURL(/\/error\/301/);

  // The administrator approves it on the review page (once rendered, it is in the queue).
  const admin = await browser.newPage();
  await logInAsAdmin(admin);
  const item = admin.locator(`[data-photo-review] [data-photo-id="${photoId}"]`);
  await expect
    .poll(
      async () => {
        await admin.goto('/en/settings/content');
        await admin.locator('[data-photo-review]').scrollIntoViewIfNeeded();
        return item.isVisible();
      },
      { timeout: 60_000, intervals: [1000] },
    )
    .toBe(true);
  await expect(item.locator('img')).toHaveCount(3);
  await item.locator('[data-approve-photo]').click();
  await expect(item).toHaveCount(0);

  // The visitor opens the post: the first image, its alt text as the caption.
  await visitor.goto(`/en/photo/kp${photoId}`);
  await waitForShell(visitor);
  await waitForIslands(visitor);
  await expect(viewer(visitor)).toHaveAttribute('data-index', '0');
  await expect(visitor.locator('[data-alt-text]')).toHaveText(alts[0]);
  await expect(visitor.locator('.photo-stage img')).toHaveAttribute('alt', alts[0]);

  // Zoom: double-click zooms in, again zooms out; the wheel zooms; 0 resets.
  const stage = visitor.locator('.photo-stage');
  const box = (await stage.boundingBox())!;
  await visitor.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => scaleOf(visitor)).toBeGreaterThan(2);
  await visitor.mouse.dblclick(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => scaleOf(visitor)).toBe(1);
  await visitor.mouse.move(box.x + box.width / 3, box.y + box.height / 3);
  await visitor.mouse.wheel(0, -400);
  await expect.poll(() => scaleOf(visitor)).toBeGreaterThan(1.5);
  await viewer(visitor).focus();
  await visitor.keyboard.press('0');
  await expect.poll(() => scaleOf(visitor)).toBe(1);

  // Swipe left with the pointer: the next image; the arrow key: the one after.
  await visitor.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2);
  await visitor.mouse.down();
  await visitor.mouse.move(box.x + box.width * 0.45, box.y + box.height / 2, { steps: 6 });
  await visitor.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 6 });
  await visitor.mouse.up();
  await expect(viewer(visitor)).toHaveAttribute('data-index', '1');
  await expect(visitor.locator('[data-alt-text]')).toHaveText(alts[1]);
  await visitor.keyboard.press('ArrowRight');
  await expect(viewer(visitor)).toHaveAttribute('data-index', '2');
  await visitor.keyboard.press('ArrowLeft');
  await expect(viewer(visitor)).toHaveAttribute('data-index', '1');
  await shoot(visitor, 'photo-viewer');

  // On a phone: pinch with two fingers zooms, a one-finger swipe moves on.
  const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, hasTouch: true, isMobile: true });
  const mobile = await phone.newPage();
  await mobile.goto(`/en/photo/kp${photoId}`);
  await waitForIslands(mobile);
  const touchBox = (await mobile.locator('.photo-stage').boundingBox())!;
  const cdp = await phone.newCDPSession(mobile);
  const cx = touchBox.x + touchBox.width / 2;
  const cy = touchBox.y + touchBox.height / 2;
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', points: Array<[number, number]>) =>
    cdp.send('Input.dispatchTouchEvent', { type, touchPoints: points.map(([x, y], id) => ({ x, y, id })) });
  await touch('touchStart', [
    [cx - 30, cy],
    [cx + 30, cy],
  ]);
  for (let step = 1; step <= 8; step++)
    await touch('touchMove', [
      [cx - 30 - step * 10, cy],
      [cx + 30 + step * 10, cy],
    ]);
  await touch('touchEnd', []);
  await expect.poll(() => scaleOf(mobile)).toBeGreaterThan(1.5);
  await mobile.locator('.photo-stage').dblclick();
  await expect.poll(() => scaleOf(mobile)).toBe(1);
  await touch('touchStart', [[cx + 100, cy]]);
  for (let step = 1; step <= 6; step++) await touch('touchMove', [[cx + 100 - step * 30, cy]]);
  await touch('touchEnd', []);
  await expect(viewer(mobile)).toHaveAttribute('data-index', '1');
  await phone.close();
});
