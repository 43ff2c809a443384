/**
 * Issue 28, reports in the browser: a member reports a danmaku from its context menu in the
 * danmaku list; an administrator hides it from the report queue in settings, where it shows with
 * its moment; a viewer then no longer gets it. A member reports a photo post and a comment under
 * it (never their own; a guest is sent to log in), staff see both and resolve one, at 1280 and
 * 375 px. Related videos stand beside the player on wide screens and under it on phones, related
 * tracks beside the track. No page or console error on the way. SHOTS=<dir> saves the pages.
 */
import { test, expect, type Page } from '@playwright/test';
import {
  E2E_BASE_URL,
  logInAsAdmin,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  shoot,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test.describe.configure({ timeout: 240_000 });

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror at ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console.error at ${page.url()}: ${message.text()}`);
  });
  return errors;
}

test('a reported danmaku hidden by staff from the queue disappears for viewers', async ({ page, browser }) => {
  const text = `rude words ${Date.now()}`;
  await signUpByApi(page, 'DanmakuSender');
  const video = await publishVideoByApi(page, { title: 'A video with a rude danmaku', seconds: 3 });
  const sent = await page.request.post(`${E2E_BASE_URL}/api/video/danmaku/emit`, {
    data: { videoId: video.videoId, time: 1.5, text, color: 'ffffff' },
  });
  expect(sent.status()).toBe(200);

  const reporter = await (await browser.newContext()).newPage();
  const reporterErrors = collectErrors(reporter);
  await signUpByApi(reporter, 'CarefulViewer');
  await reporter.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(reporter);
  await reporter.locator('[data-list-toggle]').click();
  const row = reporter.locator('[data-danmaku-list] .danmaku-row', { hasText: text });
  await row.click({ button: 'right' });
  await reporter.locator('[data-danmaku-report]').click();
  const dialog = reporter.locator('[data-report-dialog][open]');
  await expect(dialog).toBeVisible();
  await expect(dialog.locator('h2')).toHaveText('Report this danmaku');
  await dialog.locator('[data-report-reason="hateful"]').check();
  await dialog.locator('[data-report-text]').fill('Insults another viewer.');
  await shoot(reporter, 'report-dialog');
  await dialog.locator('[data-report-send]').click();
  await expect(reporter.locator('.toast')).toContainText('staff will look at your report');
  await expect(reporter.locator('[data-report-dialog][open]')).toHaveCount(0);

  const admin = await (await browser.newContext()).newPage();
  const adminErrors = collectErrors(admin);
  await logInAsAdmin(admin);
  await admin.goto('/en/settings/reports');
  await waitForIslands(admin);
  const item = admin.locator('[data-report-type="danmaku"]', { hasText: text });
  await expect(item).toContainText('0:01');
  await expect(item).toContainText('Hateful or abusive');
  await expect(item).toContainText('Shown to viewers');
  await shoot(admin, 'report-queue');
  await item.locator('[data-report-action="hide"]').click();
  await expect(admin.locator('.toast')).toContainText('1 report(s) resolved: Hide');
  await expect(item).toHaveCount(0);

  const viewer = await (await browser.newContext()).newPage();
  await viewer.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(viewer);
  await viewer.locator('[data-list-toggle]').click();
  await expect(viewer.locator('[data-danmaku-list]')).toBeVisible();
  await expect(viewer.locator('[data-danmaku-list] .danmaku-row', { hasText: text })).toHaveCount(0);
  expect([...reporterErrors, ...adminErrors]).toEqual([]);
});

/** The report dialog's own chunk (ReportDialog.[hash].js, not the small LazyReportDialog loader). */
const DIALOG_CHUNK = /\/_astro\/ReportDialog\.[\w-]+\.js$/;

for (const [width, resolved] of [
  [1280, 'comment'],
  [375, 'photo'],
] as const) {
  test(`a member reports a photo post and a comment; staff see both and resolve the ${resolved} (${width} px)`, async ({
    browser,
  }) => {
    const viewport = { width, height: 800 };
    const stamp = Date.now();
    const title = `A post to report ${stamp}`;
    const rude = `a rude comment ${stamp}`;
    const uploader = await (await browser.newContext({ viewport })).newPage();
    const uploaderErrors = collectErrors(uploader);
    await signUpByApi(uploader, 'PhotoPoster');
    const { photoId } = await publishPhotoByApi(uploader, { title });
    expect(
      (
        await uploader.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, {
          data: { videoId: photoId, mediaType: 'photo', text: rude },
        })
      ).status(),
    ).toBe(200);
    // Their own post shows them no report button (the server refuses it too: tests/api/reports.test.ts).
    await uploader.goto(`/en/photo/kp${photoId}`);
    await waitForIslands(uploader);
    await expect(uploader.locator('[data-photo-info] [data-share-button]')).toBeVisible();
    await expect(uploader.locator('[data-photo-info] [data-report-button]')).toHaveCount(0);

    // A guest pressing "Report" is asked to log in.
    const guest = await (await browser.newContext({ viewport })).newPage();
    const guestErrors = collectErrors(guest);
    await guest.goto(`/en/photo/kp${photoId}`);
    await waitForIslands(guest);
    await guest.locator('[data-photo-info] [data-report-button]').click();
    await expect(guest.locator('dialog.auth-dialog')).toBeVisible();

    const reporter = await (await browser.newContext({ viewport })).newPage();
    const reporterErrors = collectErrors(reporter);
    await signUpByApi(reporter, 'WatchfulMember');
    const mine = `my own comment ${stamp}`;
    expect(
      (
        await reporter.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, {
          data: { videoId: photoId, mediaType: 'photo', text: mine },
        })
      ).status(),
    ).toBe(200);
    const dialogChunks: string[] = [];
    reporter.on('request', (request) => {
      if (DIALOG_CHUNK.test(request.url())) dialogChunks.push(request.url());
    });
    await reporter.goto(`/en/photo/kp${photoId}`);
    await waitForIslands(reporter);
    const postButton = reporter.locator('[data-photo-info] [data-report-button]');
    await expect(postButton).toBeVisible();
    await shoot(reporter, 'photo-actions');
    // The post's actions keep to one line beside the uploader on a wide screen; on a phone they wrap inside it, none over another.
    const buttons = await reporter.locator('[data-photo-info] .video-uploader-row button').evaluateAll((elements) =>
      elements
        .map((element) => element.getBoundingClientRect())
        .filter((box) => box.width > 0)
        .map(({ top, bottom, left, right }) => ({ top, bottom, left, right })),
    );
    expect(buttons.length).toBeGreaterThanOrEqual(5);
    if (width === 1280)
      expect(Math.max(...buttons.map((b) => b.top)) - Math.min(...buttons.map((b) => b.top))).toBeLessThan(8);
    for (const [i, a] of buttons.entries()) {
      expect(a.right).toBeLessThanOrEqual(width);
      for (const b of buttons.slice(i + 1))
        expect(a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top).toBe(true);
    }
    // The dialog's code is fetched on the first press only.
    expect(dialogChunks).toEqual([]);
    await postButton.click();
    const dialog = reporter.locator('[data-report-dialog][open]');
    await expect(dialog.locator('h2')).toHaveText('Report this photo post');
    expect(dialogChunks).toHaveLength(1);
    await dialog.locator('[data-report-reason="sexual"]').check();
    await dialog.locator('[data-report-send]').click();
    await expect(reporter.locator('[data-report-dialog][open]')).toHaveCount(0);
    await expect(reporter.locator('.toast', { hasText: 'staff will look at your report' }).first()).toBeVisible();

    // Comments hydrate when scrolled to: the uploader's can be reported, one's own cannot.
    const theirs = reporter.locator('[data-comment-id]', { hasText: rude });
    await reporter.locator('[data-comments-slot]').scrollIntoViewIfNeeded();
    await expect(theirs.locator('[data-comment-report]')).toBeVisible();
    await expect(reporter.locator('[data-comment-id]', { hasText: mine })).toBeVisible();
    await expect(reporter.locator('[data-comment-id]', { hasText: mine }).locator('[data-comment-report]')).toHaveCount(
      0,
    );
    await theirs.locator('[data-comment-report]').click();
    await expect(dialog.locator('h2')).toHaveText('Report this comment');
    await dialog.locator('[data-report-reason="hateful"]').check();
    await dialog.locator('[data-report-text]').fill('Insults the people in the thread.');
    await shoot(reporter, `report-comment-dialog-${width}`);
    await dialog.locator('[data-report-send]').click();
    await expect(reporter.locator('[data-report-dialog][open]')).toHaveCount(0);
    await expect(reporter.locator('.toast', { hasText: 'staff will look at your report' }).first()).toBeVisible();

    const admin = await (await browser.newContext({ viewport })).newPage();
    const adminErrors = collectErrors(admin);
    await logInAsAdmin(admin);
    await admin.goto('/en/settings/reports');
    await waitForIslands(admin);
    const postItem = admin.locator('[data-report-type="photo"]', { hasText: title });
    const commentItem = admin.locator('[data-report-type="comment"]', { hasText: rude });
    await expect(postItem).toContainText('Sexual content');
    await expect(commentItem).toContainText('Hateful or abusive');
    await expect(commentItem).toContainText('Insults the people in the thread.');
    await shoot(admin, `report-queue-photo-comment-${width}`);
    if (resolved === 'comment') {
      await commentItem.locator('[data-report-action="hide"]').click();
      await expect(admin.locator('.toast', { hasText: '1 report(s) resolved: Hide' })).toBeVisible();
      await expect(commentItem).toHaveCount(0);
      await expect(postItem).toBeVisible();
      // Viewers no longer get it (a deleted comment without replies leaves no floor); the others stay.
      await guest.reload();
      await guest.locator('[data-comments-slot]').scrollIntoViewIfNeeded();
      await expect(guest.locator('[data-comment-id]', { hasText: mine })).toBeVisible();
      await expect(guest.locator('[data-comment-id]', { hasText: rude })).toHaveCount(0);
    } else {
      await postItem.locator('[data-report-action="dismiss"]').click();
      await expect(admin.locator('.toast', { hasText: '1 report(s) resolved: Dismiss' })).toBeVisible();
      await expect(postItem).toHaveCount(0);
      await expect(commentItem).toBeVisible();
      // Dismissed: the post stays public.
      await guest.reload();
      await expect(guest.locator('[data-photo-info] h1')).toHaveText(title);
    }
    expect([...uploaderErrors, ...guestErrors, ...reporterErrors, ...adminErrors]).toEqual([]);
  });
}

test('a member reports another member from their page, never themselves', async ({ browser }) => {
  const viewport = { width: 375, height: 800 };
  const someone = await (await browser.newContext({ viewport })).newPage();
  const someoneErrors = collectErrors(someone);
  const { uid } = await signUpByApi(someone, 'ProfileOwner');
  await someone.goto(`/en/user/${uid}`);
  await waitForIslands(someone);
  await expect(someone.locator('.user-header')).toBeVisible();
  await expect(someone.locator('.user-header [data-report-button]')).toHaveCount(0);

  const reporter = await (await browser.newContext({ viewport })).newPage();
  const reporterErrors = collectErrors(reporter);
  await signUpByApi(reporter, 'ProfileReporter');
  await reporter.goto(`/en/user/${uid}`);
  await waitForIslands(reporter);
  await reporter.locator('.user-header [data-report-button]').click();
  const dialog = reporter.locator('[data-report-dialog][open]');
  await expect(dialog.locator('h2')).toHaveText('Report this user');
  await dialog.locator('[data-report-reason="spam"]').check();
  await shoot(reporter, 'report-user-dialog');
  await dialog.locator('[data-report-send]').click();
  await expect(reporter.locator('[data-report-dialog][open]')).toHaveCount(0);
  await expect(reporter.locator('.toast', { hasText: 'staff will look at your report' }).first()).toBeVisible();
  expect([...someoneErrors, ...reporterErrors]).toEqual([]);
});

test('related videos stand beside the player on wide screens and under its information on phones; related tracks beside the track', async ({
  page,
}) => {
  const errors = collectErrors(page);
  await signUpByApi(page, 'RelatedUploader');
  const first = await publishVideoByApi(page, { title: 'The first of two', seconds: 2 });
  const second = await publishVideoByApi(page, { title: 'The second of two', seconds: 2 });
  const track = await publishAudioByApi(page, { title: 'The first track', seconds: 4 });
  const otherTrack = await publishAudioByApi(page, { title: 'The second track', seconds: 4 });

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/en/video/kv${first.videoId}`);
  await waitForIslands(page);
  const related = page.locator('[data-related-videos="video"]');
  await expect(related.locator(`[data-related-video="${second.videoId}"]`)).toBeVisible();
  const player = (await page.locator('[data-player] .player-main').boundingBox())!;
  let box = (await related.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(player.x + player.width);
  expect(box.y).toBeLessThan(player.y + player.height);
  await shoot(page, 'video-related');

  await page.setViewportSize({ width: 375, height: 800 });
  const info = (await page.locator('[data-video-info]').boundingBox())!;
  box = (await related.boundingBox())!;
  expect(box.y).toBeGreaterThanOrEqual(info.y + info.height);
  expect(box.y).toBeLessThan((await page.locator('[data-comments-slot]').boundingBox())!.y);

  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/en/audio/ka${track.audioId}`);
  await waitForIslands(page);
  const tracks = page.locator('[data-related-videos="audio"]');
  await expect(tracks.locator(`[data-related-track="${otherTrack.audioId}"]`)).toBeVisible();
  await expect(tracks.locator('h2')).toHaveText('Related tracks');
  const details = (await page.locator('.audio-details').boundingBox())!;
  expect((await tracks.boundingBox())!.x).toBeGreaterThanOrEqual(details.x + details.width);
  await shoot(page, 'audio-related');
  expect(errors).toEqual([]);
});
