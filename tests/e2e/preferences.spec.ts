/**
 * Settings > Preference, honoured where it matters: video cards (server-rendered and React lists)
 * open in a new tab and show dates as chosen, the guest avatar, and the data saver keeping the
 * video page from fetching anything of the video (nor playing it) until play is pressed.
 */
import { expect, test, type Page } from '@playwright/test';
import { localized, msg, publishVideoByApi, signUpByApi, waitForIslands, waitForShell } from './helpers.ts';

async function setPreference(page: Page, key: string, on: boolean): Promise<void> {
  await page.goto('/en/settings/preference');
  await waitForIslands(page);
  const toggle = page.getByRole('switch', { name: msg('en', `preference.${key}.title`) });
  if ((await toggle.isChecked()) !== on) await toggle.click();
  await expect(toggle).toBeChecked({ checked: on });
  expect(await page.evaluate((k) => localStorage.getItem(`app-settings:${k}`), key)).toBe(String(on));
}

test('video cards open in a new tab and show absolute dates when chosen; the guest avatar', async ({
  page,
  context,
}) => {
  await signUpByApi(page, 'Preference uploader');
  const { videoId, title } = await publishVideoByApi(page, { title: 'Preference card video', seconds: 4 });
  await context.clearCookies(); // a guest from here on

  await page.goto('/en/');
  const card = page.locator(`.video-card[data-video-id="${videoId}"]`);
  const date = card.locator('time[data-upload-date]');
  const relativeText = await date.textContent();
  await setPreference(page, 'relativeDate', false);
  await setPreference(page, 'isOpenVideoInNewTab', true);
  await setPreference(page, 'akkarinGuestAvatar', true);

  await page.goto('/en/');
  await waitForShell(page);
  const epoch = Number(await date.getAttribute('data-upload-date'));
  const absolute = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric' }).format(epoch);
  await expect(date).toHaveText(absolute);
  expect(absolute).not.toBe(relativeText);
  await expect(page.locator('[data-auth-button]')).toHaveAttribute('data-guest-avatar', '');

  const [opened] = await Promise.all([context.waitForEvent('page'), card.locator('.video-title').click()]);
  await opened.waitForLoadState();
  expect(new URL(opened.url()).pathname).toBe(localized(`/video/kv${videoId}`, 'en'));
  expect(new URL(page.url()).pathname).toBe('/en/'); // the list stays
  await opened.close();

  // The React twin (search results) follows the same store.
  await page.goto(`/en/search?keyword=${encodeURIComponent(title)}`);
  const found = page.locator(`.video-card[data-video-id="${videoId}"] time`);
  await expect(found).toHaveText(absolute);
  const [fromSearch] = await Promise.all([
    context.waitForEvent('page'),
    page.locator(`.video-card[data-video-id="${videoId}"] .video-title`).click(),
  ]);
  await fromSearch.close();

  // Off again: relative dates, same tab, the plain guest icon.
  await setPreference(page, 'relativeDate', true);
  await setPreference(page, 'isOpenVideoInNewTab', false);
  await setPreference(page, 'akkarinGuestAvatar', false);
  await page.goto('/en/');
  await waitForShell(page);
  await expect(date).toHaveText(relativeText!);
  await expect(page.locator('[data-auth-button]')).not.toHaveAttribute('data-guest-avatar', '');
  await card.locator('.video-title').click();
  await expect(page).toHaveURL(new RegExp(`/en/video/kv${videoId}$`));
});

test('data saver: the video page fetches no media and plays nothing until play is pressed', async ({ page }) => {
  await signUpByApi(page, 'Data saver uploader');
  const { videoId } = await publishVideoByApi(page, { title: 'Data saver video', seconds: 4 });
  await setPreference(page, 'dataSaver', true);
  // Autoplay chosen in the player: the data saver wins.
  await page.evaluate(() => {
    const settings = JSON.parse(localStorage.getItem('player-settings') ?? '{}');
    localStorage.setItem('player-settings', JSON.stringify({ ...settings, autoplay: true }));
  });
  const media: string[] = [];
  page.on('request', (request) => {
    if (
      new URL(request.url()).pathname.startsWith('/media/videos/') ||
      /\.(m3u8|m4s|mp4)$/.test(new URL(request.url()).pathname)
    )
      media.push(request.url());
  });
  await page.goto(`/en/video/kv${videoId}`);
  await waitForIslands(page);
  await page.waitForLoadState('networkidle');
  expect(media).toEqual([]);
  expect(await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);

  await page.locator('[data-play-button]').click();
  await expect.poll(() => media.some((url) => url.includes('.m3u8'))).toBe(true);
  await expect
    .poll(() => page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.currentTime > 0))
    .toBe(true);
});
