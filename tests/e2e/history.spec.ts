/**
 * Watch history as a member uses it: views recorded through history/record appear grouped by day
 * with the position reached, filter by title, clear all after a confirmation; with recording
 * turned off in Settings > Privacy nothing new is kept. Guests are asked to log in.
 */
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL, msg, publishVideoByApi, signUpByApi, waitForIslands, type PublishedVideo } from './helpers.ts';

const DAY_MS = 86_400_000;
const record = (page: Page, videoId: number, anchor: number) =>
  page.request.post(`${E2E_BASE_URL}/api/history/record`, { data: { videoId, anchor } }).then((r) => r.json());
const historyTitles = (page: Page) => page.locator('.history-page .video-card .video-title').allTextContents();

test('recorded views are grouped by day with the position reached, filtered by title, then cleared', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await signUpByApi(page, 'Tsukimi');
  const lantern: PublishedVideo = await publishVideoByApi(page, { title: 'Lantern walk at dusk', seconds: 4 });
  const rain: PublishedVideo = await publishVideoByApi(page, { title: '雨の窓辺', seconds: 4 });
  expect(await record(page, lantern.videoId, 2)).toMatchObject({ success: true, recorded: true });
  expect(await record(page, rain.videoId, 1)).toMatchObject({ success: true, recorded: true });

  await page.goto('/en/history');
  await expect(page.locator('[data-history-state="ready"]')).toBeVisible();
  await expect(page.locator('[data-history-day]')).toHaveCount(1);
  await expect(page.locator('[data-history-day="today"] h2')).toHaveText(msg('en', 'history.today'));
  expect(await historyTitles(page)).toEqual([rain.title, lantern.title]);
  const card = page.locator(`.video-card[data-video-id="${lantern.videoId}"]`);
  await expect(card.locator('.history-anchor')).toHaveText(msg('en', 'history.watchedTo').replace('{{time}}', '0:02'));
  await expect(card.locator('.video-progress > span')).toHaveAttribute('style', 'width: 50%;');

  // Seen from two days later the same views are "yesterday" and a date in the locale's format.
  await page.clock.setFixedTime(Date.now() + DAY_MS);
  await page.reload();
  await expect(page.locator('[data-history-day="yesterday"] h2')).toHaveText(msg('en', 'history.yesterday'));
  await page.clock.setFixedTime(Date.now() + 3 * DAY_MS);
  await page.goto('/ja/history');
  await expect(page.locator('[data-history-day="date"] h2')).toHaveText(/^\d{4}年\d{1,2}月\d{1,2}日$/);

  await page.goto('/en/history');
  await page.locator('[data-history-filter]').fill('lantern');
  await expect.poll(() => historyTitles(page)).toEqual([lantern.title]);
  await page.locator('[data-history-filter]').fill('nothing like this');
  await expect(page.locator('[data-state="empty"]')).toHaveText(
    msg('en', 'history.noMatch').replace('{{title}}', 'nothing like this'),
  );
  await page.locator('[data-history-filter]').fill('');
  await expect.poll(() => historyTitles(page)).toHaveLength(2);

  await page.locator('[data-history-clear]').click();
  await expect(page.getByRole('alertdialog')).toContainText(msg('en', 'history.clearConfirm'));
  await page
    .getByRole('alertdialog')
    .getByRole('button', { name: msg('en', 'history.cancel') })
    .click();
  expect(await historyTitles(page)).toHaveLength(2);
  await page.locator('[data-history-clear]').click();
  await page.locator('[data-history-clear-confirm]').click();
  await expect(page.locator('#toast-area')).toContainText(msg('en', 'history.cleared'));
  await expect(page.locator('[data-state="empty"]')).toHaveText(msg('en', 'history.empty'));
  const left = await (await page.request.get(`${E2E_BASE_URL}/api/history/filter`)).json();
  expect(left.result).toEqual([]);
});

test('with history turned off in Settings > Privacy nothing is recorded', async ({ page }) => {
  test.setTimeout(45_000);
  await signUpByApi(page, 'Yozora');
  const video = await publishVideoByApi(page, { title: 'Quiet harbour', seconds: 4 });

  await page.goto('/en/settings/privacy');
  await waitForIslands(page);
  const toggle = page.locator('[data-history-switch]');
  await expect(toggle).toBeChecked();
  await expect(page.getByText(msg('en', 'privacy.recordHistory'))).toBeVisible();
  await toggle.click();
  await expect(page.locator('#toast-area')).toContainText(msg('en', 'privacy.saved'));
  await expect(toggle).not.toBeChecked();
  await page.reload();
  await expect(page.locator('[data-privacy-state="ready"] [data-history-switch]')).not.toBeChecked();

  expect(await record(page, video.videoId, 2)).toMatchObject({ success: true, recorded: false });
  await page.goto('/en/history');
  await expect(page.locator('[data-history-off]')).toContainText(msg('en', 'history.off'));
  await expect(page.locator('[data-state="empty"]')).toHaveText(msg('en', 'history.empty'));
});

test('guests are asked to log in', async ({ page }) => {
  await page.goto('/en/history');
  await expect(page.locator('[data-history-state="guest"]')).toContainText(msg('en', 'history.guest'));
  await page.locator('[data-history-state="guest"] button').click();
  await expect(page.locator('dialog.auth-dialog')).toBeVisible();
});
