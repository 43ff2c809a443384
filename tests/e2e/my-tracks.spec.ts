/**
 * "My tracks" in the browser: from their user page's tracks tab an uploader opens Settings > My
 * tracks, edits a public track's title (told first that it goes back to review) and sees it
 * waiting for review, and deletes another after the confirmation dialog. The audio upload form
 * speaks of tracks (its own texts, a square cover).
 * SHOTS=<dir> saves screenshots at 375 and 1280 px.
 */
import { test, expect } from '@playwright/test';
import { E2E_BASE_URL, msg, publishAudioByApi, shoot, signUpByApi, waitForIslands } from './helpers.ts';

test.describe.configure({ timeout: 180_000 });

test('an uploader edits a public track, which goes back to review, and deletes another', async ({ page }) => {
  const { uid } = await signUpByApi(page, 'Songsmith');
  const kept = await publishAudioByApi(page, { title: 'Title before the edit', artist: 'Songsmith', seconds: 4 });
  const doomed = await publishAudioByApi(page, { title: 'A track to delete', seconds: 4 });

  await page.goto(`/en/user/${uid}/tracks`);
  await waitForIslands(page);
  await page.locator('[data-manage-tracks]').click();
  await expect(page).toHaveURL(/\/en\/settings\/my-tracks$/);
  await waitForIslands(page);
  const item = page.locator(`[data-my-tracks] [data-audio-id="${kept.audioId}"]`);
  await expect(item.locator('[data-state-badge]')).toHaveText(msg('en', 'myVideos.state.approved'));
  await shoot(page, 'my-tracks');

  await item.locator('[data-edit]').click();
  const editor = item.locator('[data-track-editor]');
  await expect(editor.locator('[data-re-review]')).toHaveText(msg('en', 'myTracks.reReviewNote'));
  await expect(editor.locator('[data-cover-picker]')).toContainText(msg('en', 'audio.form.coverHint'));
  await expect(editor.locator('input[name="artist"]')).toHaveValue('Songsmith');
  await editor.locator('input[name="title"]').fill('Title after the edit');
  await expect(editor.locator('[data-re-review]')).toHaveText(msg('en', 'myTracks.reReviewWarning'));
  await shoot(page, 'my-tracks-editor');
  await editor.locator('[data-save]').click();
  await expect(item.locator('[data-state-badge]')).toHaveText(msg('en', 'myVideos.state.pending'));
  await expect(item.locator('[data-title]')).toHaveText('Title after the edit');
  // Hidden from everyone else until approved again.
  expect((await fetch(`${E2E_BASE_URL}/api/audio?audioId=${kept.audioId}`)).status).toBe(404);

  const doomedItem = page.locator(`[data-my-tracks] [data-audio-id="${doomed.audioId}"]`);
  await doomedItem.locator('[data-delete]').click();
  const dialog = page.locator('[data-delete-dialog]');
  await expect(dialog).toContainText('A track to delete');
  await dialog.locator('[data-confirm-delete]').click();
  await expect(doomedItem).toHaveCount(0);
  expect((await fetch(`${E2E_BASE_URL}/api/audio?audioId=${doomed.audioId}`)).status).toBe(404);

  // The audio upload form has its own words.
  await page.goto('/en/upload/audio');
  await waitForIslands(page);
  await expect(page.locator('body')).not.toContainText('16:9');
});
