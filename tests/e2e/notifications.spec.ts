/**
 * Notifications as a member lives them: B follows A while A's page is open; A's bell turns to 1
 * without a reload (the live stream), A opens the message centre from the bell and the follow is
 * there; marking it read empties the bell.
 */
import { expect, test } from '@playwright/test';
import { msg, shoot, signUpByApi, waitForIslands } from './helpers.ts';

test('a new follower rings the bell live, and shows in the message centre', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const alice = await signUpByApi(page, 'Akari');
  const followerPage = await (await browser.newContext()).newPage();
  await signUpByApi(followerPage, 'Botan');

  await page.goto('/en/history');
  await waitForIslands(page);
  const bell = page.locator('[data-notification-bell]');
  await expect(bell).toBeVisible();
  await expect(bell).toHaveAttribute('data-unread', '0');
  await expect(bell.locator('[data-bell-count]')).toBeHidden();

  expect((await followerPage.request.post('/api/feed/following', { data: { followingUid: alice.uid } })).status()).toBe(
    200,
  );
  await expect(bell.locator('[data-bell-count]')).toHaveText('1', { timeout: 5_000 });
  await expect(bell).toHaveAccessibleName(msg('en', 'notifications.ui.bellUnread').replace('{{count}}', '1'));
  await shoot(page, 'notifications-bell');

  await bell.click();
  await expect(page).toHaveURL(/\/en\/notifications\/?$/);
  await waitForIslands(page);
  const entry = page.locator('[data-message-centre] [data-notification="follow"]');
  await expect(entry).toContainText('Botan started following you');
  await expect(entry).not.toHaveAttribute('data-read', '');
  await page.locator('[data-tab="like"]').click();
  await expect(page.locator('[data-message-centre] .message-empty')).toBeVisible();
  await page.locator('[data-tab="system"]').click();
  await expect(entry).toBeVisible();
  await shoot(page, 'notifications-centre');
  await page.locator('[data-mark-all-read]').click();
  await expect(entry).toHaveAttribute('data-read', '');
  await expect(page.locator('[data-notification-bell] [data-bell-count]')).toBeHidden();
  await followerPage.context().close();
});
