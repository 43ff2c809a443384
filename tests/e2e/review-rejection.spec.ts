/**
 * Review with a reason, seen from both sides: the administrator rejects a video, a track and a
 * photo post in Settings > Content (a reason from the list and a note, needed with "Other"), and
 * the uploader reads both in My videos, My tracks and on their Photos tab. Then a danmaku sent too
 * soon is refused with a countdown on the send button and in the toast. No console error and no
 * page error on the way: the refusals met are handled answers.
 * SHOTS=<dir> saves the review page and the uploader's lists at 375 and 1280 px.
 */
import { test, expect, type Page } from '@playwright/test';
import {
  logInAsAdmin,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  shoot,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror at ${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    // The browser's own network line for a refused call is not the site's logging.
    if (
      message.type() === 'error' &&
      !/Failed to load resource: the server responded with a status of (400|401|404|409|429)/.test(message.text())
    ) {
      errors.push(`console.error at ${page.url()}: ${message.text()}`);
    }
  });
  return errors;
}

test('an administrator rejects with a reason, and the uploader reads it', async ({ page, browser }) => {
  const uploaderErrors = collectErrors(page);
  const { uid } = await signUpByApi(page, 'Hopeful');
  const video = await publishVideoByApi(page, { title: 'A video with a misleading cover', seconds: 3, approve: false });
  const track = await publishAudioByApi(page, { title: 'A track already posted', seconds: 20, approve: false });
  const photo = await publishPhotoByApi(page, { title: 'Scans of a commercial artbook', approve: false });

  const admin = await browser.newPage();
  const adminErrors = collectErrors(admin);
  await logInAsAdmin(admin);
  await admin.goto('/en/settings/content');
  await waitForIslands(admin);
  // Three queues, each under a heading of the same level.
  await expect(admin.locator('.review-sections h2')).toHaveText([
    'Videos waiting for review',
    'Audio waiting for review',
    'Photo posts waiting for review',
  ]);

  const queuedVideo = admin.locator(`[data-video-review] [data-video-id="${video.videoId}"]`);
  await queuedVideo.locator('[data-reject]').click();
  const videoForm = queuedVideo.locator('[data-reject-form]');
  await expect(videoForm.locator('[data-reject-confirm]')).toBeDisabled();
  await videoForm.locator('[data-reject-reason]').selectOption('MISLEADING');
  await videoForm.locator('[data-reject-note]').fill('The cover shows another series. Change it and upload again.');
  await shoot(admin, 'review-reject-form');
  await videoForm.locator('[data-reject-confirm]').click();
  await expect(admin.locator('.toast')).toContainText(`kv${video.videoId} is rejected`);
  await expect(queuedVideo).toHaveCount(0);

  // "Other" names nothing: the form asks for the note before anything is sent.
  const queuedTrack = admin.locator(`[data-audio-review] [data-audio-id="${track.audioId}"]`);
  await queuedTrack.locator('[data-reject]').click();
  const trackForm = queuedTrack.locator('[data-reject-form]');
  await trackForm.locator('[data-reject-reason]').selectOption('OTHER');
  await trackForm.locator('[data-reject-confirm]').click();
  await expect(trackForm.locator('[data-reject-note]')).toHaveJSProperty('validity.valueMissing', true);
  await trackForm.locator('[data-reject-note]').fill('You posted this track last week (ka1).');
  await trackForm.locator('[data-reject-confirm]').click();
  await expect(queuedTrack).toHaveCount(0);

  const queuedPhoto = admin.locator(`[data-photo-review] [data-photo-id="${photo.photoId}"]`);
  await queuedPhoto.scrollIntoViewIfNeeded();
  await queuedPhoto.locator('[data-reject]').click();
  await queuedPhoto.locator('[data-reject-reason]').selectOption('COPYRIGHT');
  await queuedPhoto.locator('[data-reject-confirm]').click();
  await expect(queuedPhoto).toHaveCount(0);
  await shoot(admin, 'review-after');
  expect(adminErrors).toEqual([]);

  // The uploader's side.
  await page.goto('/en/settings/my-videos');
  await waitForIslands(page);
  const mine = page.locator(`[data-my-videos] [data-video-id="${video.videoId}"]`);
  await expect(mine.locator('[data-state-badge]')).toHaveText('Rejected');
  await expect(mine.locator('[data-rejection-reason]')).toHaveText(
    'Rejected by a reviewer: Misleading title, cover or tags',
  );
  await expect(mine.locator('[data-rejection-note]')).toHaveText(
    'Reviewer’s note: The cover shows another series. Change it and upload again.',
  );
  await shoot(page, 'my-videos-rejected');

  await page.goto('/en/settings/my-tracks');
  await waitForIslands(page);
  const myTrack = page.locator(`[data-my-tracks] [data-audio-id="${track.audioId}"]`);
  await expect(myTrack.locator('[data-state-badge]')).toHaveText('Rejected');
  await expect(myTrack.locator('[data-rejection-reason]')).toHaveText('Rejected by a reviewer: Other (say why below)');
  await expect(myTrack.locator('[data-rejection-note]')).toContainText('You posted this track last week (ka1).');
  await expect(myTrack.locator('[data-edit]')).toHaveCount(0);

  await page.goto(`/en/user/${uid}/photos`);
  const tile = page.locator(`[data-photo-id="${photo.photoId}"]`);
  await expect(tile).toHaveAttribute('data-status', 'rejected');
  await expect(tile.locator('[data-rejection-reason]')).toContainText(
    'Copyright: posted without the rights holder’s permission',
  );
  await expect(tile.locator('a')).toHaveCount(0);
  await shoot(page, 'user-photos-rejected');
  expect(uploaderErrors).toEqual([]);
});

test('a danmaku sent too soon counts down before the next may go', async ({ page }) => {
  const errors = collectErrors(page);
  await signUpByApi(page, 'Chatterbox');
  const video = await publishVideoByApi(page, { title: 'A video to talk over', seconds: 4 });
  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  const input = page.locator('[data-danmaku-input]');
  const send = page.locator('[data-danmaku-send]');
  await input.fill('first!');
  const first = page.waitForResponse((r) => r.url().includes('/api/video/danmaku/emit'));
  await input.press('Enter');
  expect((await first).status()).toBe(200);
  await expect(input).toHaveValue('');
  // What the send button and the toast show is noted as it changes: the countdown lasts a second
  // or three, and a busy machine may look later than that.
  await page.evaluate(() => {
    const shown: string[] = [];
    (window as unknown as { shown: string[] }).shown = shown;
    const button = document.querySelector<HTMLButtonElement>('[data-danmaku-send]')!;
    new MutationObserver(() => {
      shown.push(
        `button: ${button.textContent} | ${button.getAttribute('aria-label') ?? ''} | ${button.disabled ? 'disabled' : 'enabled'}`,
      );
      for (const toast of document.querySelectorAll('.toast [data-retry-countdown]'))
        shown.push(`toast: ${toast.textContent}`);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  // One danmaku per 3 s: on a busy machine the next may reach the server after that, and then it
  // is sent; the one after it comes sooner.
  let tooSoon = '';
  for (let attempt = 1; attempt <= 4 && !tooSoon; attempt++) {
    const text = `too soon, try ${attempt}`;
    await input.fill(text);
    const answer = page.waitForResponse((r) => r.url().includes('/api/video/danmaku/emit'));
    await send.click();
    if ((await answer).status() === 429) tooSoon = text;
  }
  // Refused: the text comes back, the button counts the seconds down (and says so to a screen
  // reader), the toast says when.
  await expect(input).toHaveValue(tooSoon);
  const shown = () => page.evaluate(() => (window as unknown as { shown: string[] }).shown);
  await expect
    .poll(shown)
    .toContainEqual(expect.stringMatching(/^button: [1-3] s \| .*you can send again in [1-3] s.* \| disabled$/));
  await expect.poll(shown).toContainEqual(expect.stringMatching(/^toast: Try again in [1-3] s$/));
  // Then it may be sent.
  await expect(send).toHaveText('Send', { timeout: 6_000 });
  await expect(send).toBeEnabled();
  await send.click();
  await expect(input).toHaveValue('');
  expect(errors).toEqual([]);
});
