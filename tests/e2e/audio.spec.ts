/**
 * The audio section as people use it: a member uploads a track (a FLAC with an embedded cover)
 * on /upload/audio and submits it; the administrator approves it in Settings > Content; a
 * listener finds it on /audio, plays it, seeks on the waveform, sends a danmaku at that moment
 * and sees it fly over the waveform when playback passes the moment again.
 * SHOTS=<dir> saves screenshots of /audio and the track page at 375 and 1280 px.
 */
import { test, expect, type Page } from '@playwright/test';
import { logInAsAdmin, makeTone, msg, shoot, signUpByApi, waitForIslands } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

const currentTime = (page: Page) => page.locator('[data-audio]').evaluate((a: HTMLAudioElement) => a.currentTime);

test('upload a track, approve it, play it with the waveform seek and a danmaku at its moment', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const tone = await makeTone(20);
  const uploader = await signUpByApi(page, '作曲家');
  await page.goto('/upload');
  await page.locator('[data-upload-audio]').click();
  await waitForIslands(page);
  await page.locator('[data-audio-input]').setInputFiles(tone);
  await expect(page.locator('[data-media-status]')).toHaveAttribute('data-media-status', 'ready', { timeout: 90_000 });
  await expect(page.locator('[data-media-status]')).toHaveText(msg('zhs', 'audio.status.ready'));
  const form = page.locator('[data-audio-form]');
  await form.locator('input[name="title"]').fill('E2E 夜曲');
  await form.locator('input[name="artist"]').fill('作曲：E2E');
  await form.locator('input[name="ensureOriginal"]').check();
  await shoot(page, 'audio-upload');
  await form.locator('[data-submit]').click();
  const committed = page.locator('[data-audio-committed]');
  await expect(committed).toContainText(msg('zhs', 'audio.form.submitted'));
  const audioId = Number(await committed.getAttribute('data-audio-committed'));

  // Pending: a guest gets the error page; the administrator approves it in Settings > Content.
  const guest = await browser.newPage();
  await guest.goto(`/audio/ka${audioId}`);
  await expect(guest).toHaveURL(/\/error\/301$/);
  const admin = await (await browser.newContext()).newPage();
  await logInAsAdmin(admin);
  await admin.goto('/settings/content');
  await waitForIslands(admin);
  await admin.locator(`[data-approve-audio="${audioId}"]`).click();
  await expect(admin.locator('.toast')).toContainText(`ka${audioId}`);
  await admin.context().close();

  // A listener finds it on /audio and opens it.
  await guest.goto('/audio');
  const card = guest.locator(`[data-list="audio-newest"] [data-audio-id="${audioId}"]`);
  await expect(card).toContainText('E2E 夜曲');
  await expect(card.locator('img')).toHaveAttribute('src', /cover\.jpg$/);
  await shoot(guest, 'audio-list');
  // The home page's row of tracks, and the uploader's Audio tab.
  await guest.goto('/');
  await expect(guest.locator(`[data-list="home-audio"] [data-audio-id="${audioId}"]`)).toBeVisible();
  await shoot(guest, 'audio-home');
  await guest.goto(`/user/${uploader.uid}/tracks`);
  await expect(guest.locator(`[data-list="user-audio"] [data-audio-id="${audioId}"]`)).toBeVisible();
  await shoot(guest, 'audio-user-tab');
  await guest.close();

  await page.goto(`/audio/ka${audioId}`);
  await waitForIslands(page);
  await expect(page.locator('[data-audio-title]')).toHaveText('E2E 夜曲');
  await page.locator('[data-play]').click();
  await expect.poll(() => currentTime(page), { timeout: 20_000 }).toBeGreaterThan(0.2);
  // The waveform is the seek bar: a click at three quarters lands at about 15 s of 20.
  const wave = page.locator('[data-waveform]');
  const box = (await wave.boundingBox())!;
  await page.mouse.click(box.x + box.width * 0.75, box.y + box.height / 2);
  await expect.poll(() => currentTime(page)).toBeGreaterThan(14.5);
  expect(await currentTime(page)).toBeLessThan(17);
  // Keyboard: Home goes back to the start.
  await wave.focus();
  await page.keyboard.press('Home');
  await expect.poll(() => currentTime(page)).toBeLessThan(3);
  // A danmaku at this moment (about 1 s in) flies over the waveform at once… Its moment must be past
  // 0:00, where it would be due for a new listener before play: a busy machine once paused right
  // after Home, at 0:00 (and one that ran slower still would have reached the end of the 20 s).
  if (await page.locator('[data-audio]').evaluate((a: HTMLAudioElement) => a.paused))
    await page.locator('[data-play]').click();
  await expect.poll(() => currentTime(page)).toBeGreaterThan(0.5);
  await page.locator('[data-play]').click(); // pause
  await page.locator('[data-danmaku-input]').fill('ここ好き');
  await page.locator('[data-danmaku-send]').click();
  await expect(page.locator('[data-danmaku-layer] [data-danmaku]')).toHaveText('ここ好き');
  // …and, for another listener, when playback reaches its moment.
  const listener = await (await browser.newContext()).newPage();
  await listener.goto(`/audio/ka${audioId}`);
  await waitForIslands(listener);
  await expect(listener.locator('[data-danmaku-layer] [data-danmaku]')).toHaveCount(0);
  await listener.locator('[data-play]').click();
  await expect(listener.locator('[data-danmaku-layer] [data-danmaku]')).toHaveText('ここ好き', { timeout: 15_000 });
  await listener.locator('[data-play]').click();
  await shoot(listener, 'audio-track');
  // The play was counted once.
  await expect
    .poll(async () => (await (await listener.request.get(`/api/audio?audioId=${audioId}`)).json()).audio.playCount)
    .toBeGreaterThan(0);
  await listener.context().close();
});
