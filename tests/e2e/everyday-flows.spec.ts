/**
 * Everyday flows that used to fail without a word, at 1280 and 375 px, failing on any console
 * error: Enter adds a tag (and the published video has it); a tag typed and not added, or a cover
 * crop not confirmed, holds the form back with the reason; "Start upload" without a file says
 * why; the upload forms' drafts survive closing the tab (IndexedDB) and can be discarded; the
 * danmaku style popover closes on Esc, a press on the video and sending; phones reach Audio,
 * Photos and Collections; a missing video's page says 404. SHOTS=<dir> saves screenshots.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  E2E_BASE_URL,
  adminRequest,
  makePicture,
  makeClip,
  msg,
  shoot,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-everyday-e2e-'));

/**
 * Every test fails on an uncaught exception or a console error of any of its pages, but for
 * the expected answers a test names (`consoleErrors.expect`: the 404 of an error page it opens).
 */
const test = base.extend<{ consoleErrors: { expect: (pattern: RegExp) => void } }>({
  consoleErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      const expected: RegExp[] = [];
      const watch = (page: Page) => {
        page.on('pageerror', (error) => errors.push(`pageerror at ${page.url()}: ${error.message}`));
        page.on('console', (message) => {
          if (message.type() === 'error')
            errors.push(`console.error at ${page.url()}: ${message.text()} (${message.location().url})`);
        });
      };
      context.pages().forEach(watch);
      context.on('page', watch);
      await use({ expect: (pattern) => expected.push(pattern) });
      expect(errors.filter((error) => !expected.some((pattern) => pattern.test(error)))).toEqual([]);
    },
    { auto: true },
  ],
});

/** The member's stored drafts (IndexedDB UploadDrafts), read in the page. */
const storedDrafts = (page: Page) =>
  page.evaluate(
    () =>
      new Promise<Array<{ key: string; fields: Record<string, unknown> }>>((resolve, reject) => {
        const open = indexedDB.open('UploadDrafts');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('drafts')) {
            db.close();
            resolve([]);
            return;
          }
          const all = db.transaction('drafts').objectStore('drafts').getAll();
          all.onsuccess = () => {
            db.close();
            resolve(all.result);
          };
          all.onerror = () => reject(all.error);
        };
      }),
  );

/** A processed media of a short clip, uploaded through tus by the logged-in `page`. */
async function uploadMedia(page: Page, seconds: number): Promise<string> {
  const bytes = await makeClip(seconds, '320x240');
  const tus = { 'Tus-Resumable': '1.0.0' };
  const created = await page.request.post(`${E2E_BASE_URL}/api/video/tus`, {
    headers: {
      ...tus,
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': `name ${btoa('clip.mp4')},maxDurationSeconds ${btoa('1800')}`,
    },
  });
  const done = await page.request.patch(new URL(created.headers().location, E2E_BASE_URL).toString(), {
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  const mediaId = done.headers()['stream-media-id'];
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`${E2E_BASE_URL}/api/video/media/status?mediaId=${mediaId}`)).json()).status,
      { timeout: 90_000, intervals: [300] },
    )
    .toMatch(/^(playable|ready)$/);
  return mediaId;
}

/** An approved video of two parts, the second with a long English title. */
async function publishTwoParts(page: Page): Promise<number> {
  const parts = [await uploadMedia(page, 3), await uploadMedia(page, 4)];
  const answer = await page.request.post(`${E2E_BASE_URL}/api/video/upload`, {
    data: {
      title: `Two parts ${randomBytes(3).toString('hex')}`,
      description: '',
      videoCategory: 'anime',
      copyright: 'original',
      ensureOriginal: true,
      videoTagList: [],
      pushToFeed: false,
      videoPart: [
        { mediaId: parts[0], videoPartTitle: 'Part one' },
        { mediaId: parts[1], videoPartTitle: 'Part two: green fields' },
      ],
    },
  });
  const { videoId } = (await answer.json()) as { videoId: number };
  expect(answer.ok()).toBe(true);
  expect((await (await adminRequest()).post('/api/video/pending/approved', { data: { videoId } })).ok()).toBe(true);
  return videoId;
}

/** Whether an element shows its whole text (no ellipsis), and an input its whole placeholder. */
const showsWholeText = (locator: ReturnType<Page['locator']>) =>
  locator.evaluate((el: HTMLElement) => {
    if (el instanceof HTMLInputElement) {
      const style = getComputedStyle(el);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = style.font;
      return (
        context.measureText(el.placeholder).width <=
        el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
      );
    }
    return el.scrollWidth <= el.clientWidth;
  });

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 800 : 900 } });

    test('Start upload without a file says why; Enter adds tags; a typed tag and an unconfirmed crop hold the video back; it goes out tagged with its cover', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const clip = join(dir, `everyday-${width}.mp4`);
      writeFileSync(clip, await makeClip(4, '640x360'));
      const picture = await makePicture(dir);
      const existing = `e2e既有${randomBytes(3).toString('hex')}`;
      const { tagId: existingId } = (await (
        await (
          await adminRequest()
        ).post('/api/video/tag/create', {
          data: {
            tagNameList: [{ lang: 'zhs', tagName: [{ name: existing, isDefault: true, isOriginalTagName: true }] }],
          },
        })
      ).json()) as { tagId: number };

      await signUpByApi(page, `日常${width}`);
      await page.goto('/upload');
      await waitForIslands(page);
      // The same three tabs as on the other upload pages.
      await expect(page.locator('[data-upload-tab]')).toHaveText([
        msg('zhs', 'audio.kindVideo'),
        msg('zhs', 'audio.kindAudio'),
        msg('zhs', 'nav.photo'),
      ]);
      await expect(page.locator('[data-upload-tab="video"]')).toHaveAttribute('aria-current', 'page');

      await page.locator('[data-start]').click();
      await expect(page.locator('[data-missing-file]')).toHaveText(msg('zhs', 'upload.chooseFileFirst'));
      await expect(page.locator('input[name="video"]')).toBeFocused();
      await shoot(page, `everyday-no-file`);

      await page.locator('input[name="video"]').setInputFiles(clip);
      await expect(page.locator('[data-missing-file]')).toHaveCount(0);
      await expect(page.locator('[data-check="ok"]')).toBeVisible({ timeout: 15_000 });
      await page.locator('[data-start]').click();

      const form = page.locator('[data-upload-form]');
      const tagInput = form.locator('input[name="tagSearch"]');
      // Enter creates a tag nobody has yet...
      const created = `回车标签${randomBytes(3).toString('hex')}`;
      await tagInput.fill(created);
      await tagInput.press('Enter');
      await expect(form.locator('[data-picked-tags]')).toContainText(created);
      await expect(tagInput).toHaveValue('');
      // ...and adds the highlighted suggestion (arrow down onto it).
      await tagInput.fill(existing);
      await expect(form.getByRole('option', { name: existing })).toBeVisible();
      await tagInput.press('ArrowDown');
      await expect(form.getByRole('option', { name: existing })).toHaveAttribute('aria-selected', 'true');
      await tagInput.press('Enter');
      await expect(form.locator('[data-picked-tags] li')).toHaveCount(2);

      const title = `日常投稿 ${randomBytes(3).toString('hex')}`;
      await form.locator('input[name="title"]').fill(title);
      await form.locator('select[name="videoCategory"]').selectOption('music');
      await form.locator('input[name="ensureOriginal"]').check();

      // A tag typed and not added: the form says so and goes nowhere.
      await tagInput.fill('还没加上');
      await form.locator('[data-submit]').click();
      await expect(form.locator('[data-pending-work]')).toHaveText(
        msg('zhs', 'upload.tagNotAdded').replace('{{name}}', '还没加上'),
      );
      await expect(tagInput).toBeFocused();
      await tagInput.fill('');

      // A cover chosen and not confirmed: the same.
      await page.locator('input[name="cover"]').setInputFiles(picture);
      await expect(page.locator('[data-cropper]')).toBeVisible();
      await form.locator('[data-submit]').click();
      await expect(form.locator('[data-pending-work]')).toHaveText(msg('zhs', 'upload.cropPending'));
      await shoot(page, `everyday-crop-pending`);
      await expect(page.locator('[data-uploader="done"]')).toHaveCount(0);
      // Confirmed, and sent on a slow line: while it uploads, the form waits for it and says so.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 4000,
      });
      await page.locator('[data-cropper] .error-actions .button').first().click();
      await expect(page.locator('[data-cover-picker]')).toContainText(msg('zhs', 'upload.coverUploading'));
      await form.locator('[data-submit]').click();
      await expect(form.locator('[data-pending-work]')).toHaveText(msg('zhs', 'upload.coverPending'));
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
      await expect(page.locator('[data-cover-preview="cover"]')).toBeVisible({ timeout: 60_000 });
      await expect(form.locator('[data-pending-work]')).toHaveCount(0);

      await form.locator('[data-submit]').click();
      const link = page.locator('[data-video-link]');
      await expect(link).toBeVisible({ timeout: 60_000 });
      const videoId = Number(/kv(\d+)$/.exec((await link.getAttribute('href'))!)![1]);
      const answer = await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json();
      expect(answer.video.title).toBe(title);
      expect(answer.video.image).toMatch(/^\/media\/images\/covers\//);
      expect(answer.video.videoTagList.map((tag: { tagId: number }) => tag.tagId)).toContain(existingId);
      expect(JSON.stringify(answer.video.videoTagList)).toContain(created);

      // Published: its draft is gone.
      await expect.poll(() => storedDrafts(page)).toEqual([]);
      await page.goto('/upload');
      await waitForIslands(page);
      await expect(page.locator('[data-uploader="choose"]')).toBeVisible();
      await expect(page.locator('[data-draft-notice]')).toHaveCount(0);
    });

    test('the upload forms keep a draft when the tab is closed, restore it and discard it', async ({
      page,
      context,
    }) => {
      test.setTimeout(90_000);
      await signUpByApi(page, `草稿${width}`);

      // Audio: the form is there before any file.
      await page.goto('/upload/audio');
      await waitForIslands(page);
      await expect(page.locator('[data-upload-tab="audio"]')).toHaveAttribute('aria-current', 'page');
      const audioForm = page.locator('[data-audio-form]');
      await audioForm.locator('input[name="title"]').fill('未完成的曲子');
      await audioForm.locator('textarea[name="description"]').fill('写到一半');
      await audioForm.locator('input[name="artist"]').fill('某位歌手');
      const tag = `草稿标签${randomBytes(3).toString('hex')}`;
      await audioForm.locator('input[name="tagSearch"]').fill(tag);
      await audioForm.locator('input[name="tagSearch"]').press('Enter');
      await expect(audioForm.locator('[data-picked-tags]')).toContainText(tag);
      await expect
        .poll(async () =>
          JSON.stringify((await storedDrafts(page)).find((d) => d.key.endsWith(':audio'))?.fields ?? {}),
        )
        .toContain(tag);
      await page.close();

      const again = await context.newPage();
      await again.goto('/upload/audio');
      await waitForIslands(again);
      const restored = again.locator('[data-audio-form]');
      await expect(again.locator('[data-draft-notice]')).toBeVisible();
      await expect(restored.locator('input[name="title"]')).toHaveValue('未完成的曲子');
      await expect(restored.locator('textarea[name="description"]')).toHaveValue('写到一半');
      await expect(restored.locator('input[name="artist"]')).toHaveValue('某位歌手');
      await expect(restored.locator('[data-picked-tags]')).toContainText(tag);
      await shoot(again, 'everyday-draft-restored');
      await again.locator('[data-draft-discard]').click();
      await expect(again.locator('[data-draft-notice]')).toHaveCount(0);
      await expect(restored.locator('input[name="title"]')).toHaveValue('');
      await expect(restored.locator('[data-picked-tags]')).toHaveCount(0);
      await expect.poll(async () => (await storedDrafts(again)).filter((d) => d.key.endsWith(':audio'))).toEqual([]);
      await again.reload();
      await waitForIslands(again);
      await expect(again.locator('[data-audio-form] input[name="title"]')).toHaveValue('');
      await expect(again.locator('[data-draft-notice]')).toHaveCount(0);

      // Photos: the post's words come back before any picture is picked again.
      await again.goto('/upload/photo');
      await waitForIslands(again);
      const photoForm = again.locator('[data-photo-uploader="form"]');
      await photoForm.locator('[data-photo-title]').fill('写了一半的图集');
      await photoForm.locator('textarea:not([data-alt-input])').fill('夜里的星空');
      await expect
        .poll(async () =>
          JSON.stringify((await storedDrafts(again)).find((d) => d.key.endsWith(':photo'))?.fields ?? {}),
        )
        .toContain('写了一半的图集');
      await again.goto('/upload/photo');
      await waitForIslands(again);
      await expect(again.locator('[data-draft-notice]')).toBeVisible();
      await expect(photoForm.locator('[data-photo-title]')).toHaveValue('写了一半的图集');
      await expect(photoForm.locator('textarea:not([data-alt-input])')).toHaveValue('夜里的星空');
      await again.locator('[data-draft-discard]').click();
      await expect(photoForm.locator('[data-photo-title]')).toHaveValue('');
      await expect.poll(async () => (await storedDrafts(again)).filter((d) => d.key.endsWith(':photo'))).toEqual([]);

      // Video: the draft waits for the same file, then fills the form and the part's title.
      const clip = join(dir, `draft-${width}.mp4`);
      writeFileSync(clip, await makeClip(3, '320x240'));
      await again.goto('/upload');
      await waitForIslands(again);
      await again.locator('input[name="video"]').setInputFiles(clip);
      await expect(again.locator('[data-check="ok"]')).toBeVisible({ timeout: 15_000 });
      await again.locator('[data-start]').click();
      const form = again.locator('[data-upload-form]');
      await form.locator('input[name="title"]').fill('草稿里的视频');
      await again.locator('input[name="videoPartTitle"]').first().fill('第一集');
      await form.locator('select[name="videoCategory"]').selectOption('game');
      await expect
        .poll(async () =>
          JSON.stringify((await storedDrafts(again)).find((d) => d.key.endsWith(':video'))?.fields ?? {}),
        )
        .toContain('game');
      await again.close();

      const third = await context.newPage();
      await third.goto('/upload');
      await waitForIslands(third);
      await expect(third.locator('[data-draft-notice]')).toContainText('草稿里的视频');
      await shoot(third, 'everyday-draft-kept');
      await third.locator('input[name="video"]').setInputFiles(clip);
      await expect(third.locator('[data-check="ok"]')).toBeVisible({ timeout: 15_000 });
      await third.locator('[data-start]').click();
      await expect(third.locator('[data-upload-form] input[name="title"]')).toHaveValue('草稿里的视频');
      await expect(third.locator('[data-upload-form] select[name="videoCategory"]')).toHaveValue('game');
      await expect(third.locator('input[name="videoPartTitle"]').first()).toHaveValue('第一集');
      // Wait for the upload to finish, so closing the page leaves no request in flight.
      await expect(third.locator('[data-upload-state]')).toHaveAttribute('data-upload-state', 'success', {
        timeout: 30_000,
      });
    });

    test('the video page: danmaku input and part titles shown whole; the style popover closes on Esc, a press on the video and sending', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await signUpByApi(page, `弹幕${width}`);
      const videoId = await publishTwoParts(page);
      // English: the longest placeholder and labels of the bar.
      await page.goto(`/en/video/kv${videoId}`);
      await waitForIslands(page);
      const button = page.locator('[data-danmaku-style-button]');
      const popover = page.locator('[data-danmaku-style]');
      const input = page.locator('[data-danmaku-input]');
      // Playing opens the live stream, and its count of viewers joins the bar.
      await showPlayIntent(page);
      await page.locator('[data-play-button]').click();
      await expect(page.locator('[data-watching]')).toBeVisible({ timeout: 20_000 });
      await page.locator('[data-video]').evaluate((v: HTMLVideoElement) => v.pause());
      expect(await showsWholeText(input)).toBe(true);
      for (const title of await page.locator('.player-parts .part-title').all())
        expect(await showsWholeText(title)).toBe(true);
      await shoot(page, 'everyday-video-page');

      await button.click();
      await expect(popover).toBeVisible();
      await shoot(page, 'everyday-danmaku-style');
      await page.keyboard.press('Escape');
      await expect(popover).toHaveCount(0);
      await expect(button).toBeFocused();

      await button.click();
      await expect(popover).toBeVisible();
      await page.locator('.player-stage').click({ position: { x: 20, y: 20 } });
      await expect(popover).toHaveCount(0);

      await button.click();
      await popover.getByText(msg('en', 'player.modes.bottom')).click();
      await input.fill('at the bottom');
      await input.press('Enter');
      await expect(popover).toHaveCount(0);
      await expect(input).toHaveValue('');
    });

    test('a missing video says 404, not 301 Moved Permanently', async ({ page, consoleErrors }) => {
      // The page itself is answered 404, which the browser reports: expected.
      consoleErrors.expect(/status of 404 .*\/error\/301\)$/);
      await page.goto('/video/kv999998');
      await expect(page.locator('.error-page .error-code')).toHaveText('404');
      await expect(page.locator('.error-page h1')).toHaveText(msg('zhs', 'error.redirect.title'));
      await expect(page).toHaveTitle(/^404 Not Found/);
      await expect(page.locator('body')).not.toContainText('Moved Permanently');
      await expect(page.locator('body')).not.toContainText('301');
      await shoot(page, 'everyday-missing-video');
    });
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('the bottom bar reaches Audio, Photos and Collections through More', async ({ page }) => {
    await page.goto('/en/');
    await waitForIslands(page);
    const more = page.locator('[data-bottom-more]');
    const sheet = more.locator('.bottom-sheet');
    await expect(sheet).toBeHidden();
    await more.locator('summary').click();
    for (const key of ['nav.audio', 'nav.photo', 'nav.collections', 'nav.settings'])
      await expect(sheet.getByRole('link', { name: msg('en', key) })).toBeVisible();
    await shoot(page, 'everyday-phone-more');
    await page.keyboard.press('Escape');
    await expect(sheet).toBeHidden();
    await more.locator('summary').click();
    await page.locator('main').click({ position: { x: 10, y: 10 } });
    await expect(sheet).toBeHidden();

    for (const [key, path] of [
      ['nav.audio', '/en/audio'],
      ['nav.photo', '/en/photo'],
      ['nav.collections', '/en/collections'],
    ] as const) {
      await page.locator('[data-bottom-more] summary').click();
      await page
        .locator('.bottom-sheet')
        .getByRole('link', { name: msg('en', key) })
        .click();
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      // The section is marked on the More entry of its own page.
      await expect(page.locator('[data-bottom-more] summary')).toHaveClass(/active/);
    }
  });
});
