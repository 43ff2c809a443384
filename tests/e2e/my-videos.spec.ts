/**
 * "My videos" in the browser: an uploader edits a public video's title (told first that it goes
 * back to review), the administrator approves it again in Settings > Content and the new title is
 * public; a video deleted after the confirmation dialog is gone from the user page; and an
 * administrator grants and revokes a role in Settings > Profile review.
 * SHOTS=<dir> saves screenshots of the page and its controls at 375 and 1280 px.
 */
import { test, expect } from '@playwright/test';
import {
  E2E_BASE_URL,
  adminRequest,
  logInAsAdmin,
  publishVideoByApi,
  shoot,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

test('an uploader edits a public video, which goes back to review, and deletes another', async ({ page, browser }) => {
  const { uid } = await signUpByApi(page, 'Curator');
  const kept = await publishVideoByApi(page, { title: 'Title before the edit', seconds: 3 });
  const doomed = await publishVideoByApi(page, { title: 'A video to delete', seconds: 3 });

  // The owner finds "my videos" from their own user page.
  await page.goto(`/en/user/${uid}/videos`);
  await waitForIslands(page);
  await page.locator('[data-manage-videos]').click();
  await expect(page).toHaveURL(/\/en\/settings\/my-videos$/);
  await waitForIslands(page);
  const item = page.locator(`[data-my-videos] [data-video-id="${kept.videoId}"]`);
  await expect(item.locator('[data-state-badge]')).toHaveText('Public');
  await expect(item.locator('[data-stat="views"]')).toHaveText('Views: 0');

  await item.locator('[data-edit]').click();
  const editor = item.locator('[data-video-editor]');
  await expect(editor.locator('[data-re-review]')).toContainText('Changing only the category');
  await editor.locator('input[name="title"]').fill('Title after the edit');
  // Said before saving: the change sends the public video back to review.
  await expect(editor.locator('[data-re-review]')).toContainText('goes back to review');
  await expect(editor.locator('[data-save]')).toHaveText('Save and send for review');
  await shoot(page, 'my-videos-editor');
  await editor.locator('[data-save]').click();
  await expect(item.locator('[data-state-badge]')).toHaveText('Waiting for review');
  await expect(item.locator('[data-title]')).toHaveText('Title after the edit');
  // Hidden from everyone else until approved again.
  expect((await (await fetch(`${E2E_BASE_URL}/api/video/exists?videoId=${kept.videoId}`)).json()).exist).toBe(false);

  // Delete with the confirmation dialog: cancelling keeps it, confirming removes it.
  const doomedItem = page.locator(`[data-my-videos] [data-video-id="${doomed.videoId}"]`);
  await doomedItem.locator('[data-delete]').click();
  const dialog = page.locator('[data-delete-dialog]');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('A video to delete');
  await shoot(page, 'my-videos-delete-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(doomedItem).toBeVisible();
  await doomedItem.locator('[data-delete]').click();
  await dialog.locator('[data-confirm-delete]').click();
  await expect(doomedItem).toHaveCount(0);
  await shoot(page, 'my-videos');

  // The administrator finds the edited video in the review queue and approves it.
  const admin = await browser.newPage();
  await logInAsAdmin(admin);
  await admin.goto('/en/settings/content');
  await waitForIslands(admin);
  const queued = admin.locator(`[data-video-review] [data-video-id="${kept.videoId}"]`);
  await expect(queued).toContainText('Title after the edit');
  await queued.locator('[data-approve]').click();
  await expect(queued).toHaveCount(0);
  await admin.close();

  // A visitor sees the new title on the user page, and the deleted video nowhere.
  const visitor = await browser.newPage();
  await visitor.goto(`/en/user/${uid}/videos`);
  const list = visitor.locator('[data-list="user-videos"]');
  await expect(list).toContainText('Title after the edit');
  await expect(list).not.toContainText('A video to delete');
  await expect(list).not.toContainText('Title before the edit');
  await expect(visitor.locator('[data-manage-videos]')).toHaveCount(0);
  await visitor.close();
});

test('an administrator grants and revokes a role in the profile review', async ({ page, browser }) => {
  const member = await browser.newPage();
  const { uid } = await signUpByApi(member, 'RoleTarget');
  await member.close();
  await logInAsAdmin(page);
  await page.goto('/en/settings/user-info');
  await waitForIslands(page);
  await page.getByLabel('Only profiles changed since their last review').uncheck();
  const row = page.locator(`[data-review-queue] [data-uid="${uid}"]`);
  await expect(row.locator('.role-list')).toHaveText('Member');

  await row.locator('[data-change-roles]').click();
  const dialog = row.locator('[data-roles-dialog]');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('checkbox', { name: /Developer/ }).check();
  await shoot(page, 'roles-dialog');
  await dialog.locator('[data-save-roles]').click();
  await expect(dialog).toBeHidden();
  await expect(row.locator('.role-list')).toHaveText('DeveloperMember');
  const rolesOf = async () =>
    ((await (await (await adminRequest()).get(`/api/user/info?uid=${uid}`)).json()) as { result: { roles: string[] } })
      .result.roles;
  expect(await rolesOf()).toEqual(['developer', 'user']);

  await row.locator('[data-change-roles]').click();
  await dialog.getByRole('checkbox', { name: /Developer/ }).uncheck();
  await dialog.locator('[data-save-roles]').click();
  await expect(row.locator('.role-list')).toHaveText('Member');
  expect(await rolesOf()).toEqual(['user']);
  await shoot(page, 'roles');
});
