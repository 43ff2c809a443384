/**
 * Block and hide as a member uses it: keywords and expressions kept in settings (an unsafe
 * expression refused with the server's message), and an uploader blocked from their page whose
 * videos then leave the member's home list, until unblocked in settings.
 */
import { expect, test, type Page } from '@playwright/test';
import {
  E2E_BASE_URL,
  msg,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

test.describe.configure({ timeout: 60_000 });

const fill = (text: string, values: Record<string, string | number>) =>
  Object.entries(values).reduce((out, [key, value]) => out.replace(`{{${key}}}`, String(value)), text);

async function openSettings(page: Page) {
  await page.goto('/en/settings/block-and-hide');
  await waitForIslands(page);
  return page.locator('[data-block-lists]');
}

async function addEntry(page: Page, value: string) {
  const lists = page.locator('[data-block-lists]');
  await lists.locator('input[name=value]').fill(value);
  await lists.locator('form button[type=submit]').click();
}

test('a member keeps keywords and expressions, and an unsafe expression is refused', async ({ page }) => {
  await signUpByApi(page, 'Picky');
  const lists = await openSettings(page);

  await lists.locator('[data-block-tab=keyword]').click();
  await expect(lists.locator('[data-block-tab=keyword]')).toHaveAttribute('aria-selected', 'true');
  await expect(lists.locator('[data-block-empty]')).toHaveText(msg('en', 'blockLists.empty'));
  await addEntry(page, 'spoiler');
  await expect(page.locator('.toast', { hasText: msg('en', 'blockLists.added') })).toBeVisible();
  await addEntry(page, '剧透');
  await expect(lists.locator('[data-block-item]')).toHaveText([/剧透/, /spoiler/]);
  await expect(lists.locator('[data-block-usage]')).toHaveText(
    fill(msg('en', 'blockLists.usage'), { count: 2, limit: 200 }),
  );
  await lists.locator('[data-block-item=spoiler] button').click();
  await expect(page.locator('.toast', { hasText: msg('en', 'blockLists.removed') })).toBeVisible();
  await expect(lists.locator('[data-block-item]')).toHaveText([/剧透/]);

  await lists.locator('[data-block-tab=regex]').click();
  await addEntry(page, '(a+)+$');
  await expect(lists.locator('[data-block-error]')).toHaveText(msg('en', 'api.unsafeRegex'));
  await expect(lists.locator('[data-block-empty]')).toBeVisible();
  await addEntry(page, '(哈){4,}');
  await expect(lists.locator('[data-block-item="(哈){4,}"]')).toBeVisible();
  await expect(lists.locator('[data-block-error]')).toHaveCount(0);
  await expect(lists.locator('[data-block-usage]')).toHaveText(
    fill(msg('en', 'blockLists.usage'), { count: 1, limit: 3 }),
  );

  // What the server keeps is what the page shows after a reload.
  await page.reload();
  await waitForIslands(page);
  await lists.locator('[data-block-tab=regex]').click();
  await expect(lists.locator('[data-block-item]')).toHaveText([/\(哈\)\{4,\}/]);
  await lists.locator('[data-block-item] button').click();
  await expect(lists.locator('[data-block-empty]')).toBeVisible();
});

test('blocking an uploader from their page leaves their videos out of the member’s home list', async ({
  page,
  browser,
}) => {
  const uploaderPage = await (await browser.newContext()).newPage();
  const uploader = await signUpByApi(uploaderPage, 'Prolific');
  const { videoId } = await publishVideoByApi(uploaderPage, { title: 'Blocked soon' });
  await uploaderPage.context().close();

  await signUpByApi(page, 'Particular');
  const homeIds = async () =>
    (
      (await (await page.request.get(`${E2E_BASE_URL}/api/video/home?pageSize=100`)).json()).videos as Array<{
        videoId: number;
      }>
    ).map((v) => v.videoId);
  expect(await homeIds()).toContain(videoId);

  await page.goto(`/en/user/${uploader.uid}`);
  await waitForIslands(page);
  const block = page.locator('[data-block-user]');
  await expect(block).toHaveText(msg('en', 'blockLists.user.block'));
  await block.click();
  await expect(page.locator('.toast', { hasText: msg('en', 'blockLists.user.blocked') })).toBeVisible();
  await expect(block).toHaveText(msg('en', 'blockLists.user.unblock'));
  await expect(block).toHaveAttribute('aria-pressed', 'true');
  expect(await homeIds()).not.toContain(videoId);

  // Listed in settings with the uploader's name, and unblocked from there.
  const lists = await openSettings(page);
  const entry = lists.locator(`[data-block-item="${uploader.uid}"]`);
  await expect(entry).toContainText('Prolific');
  await entry.locator('button').click();
  await expect(lists.locator('[data-block-empty]')).toBeVisible();
  expect(await homeIds()).toContain(videoId);
});

test('a blocked uploader’s tracks and photo posts leave the member’s home rows and /photo (and the page is not shared by caches)', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000); // the real audio and photo pipelines
  const uploaderPage = await (await browser.newContext()).newPage();
  const uploader = await signUpByApi(uploaderPage, 'Songwriter');
  const { audioId } = await publishAudioByApi(uploaderPage, { title: 'Blocked song', seconds: 4 });
  const { photoId } = await publishPhotoByApi(uploaderPage, { title: 'Blocked picture' });
  await uploaderPage.context().close();

  await signUpByApi(page, 'Selective');
  const track = page.locator(`[data-list=home-audio] a[href$="/audio/ka${audioId}"]`);
  const homePhoto = page.locator(`[data-list=home-photos] [data-photo-id="${photoId}"]`);
  const gridPhoto = page.locator(`[data-list=photo] [data-photo-id="${photoId}"]`);
  let home = await page.goto('/en/');
  await expect(track.first()).toBeVisible();
  await expect(homePhoto).toBeVisible();
  expect(home!.headers()['cache-control']).toBe('private, no-cache');
  await page.goto('/en/photo');
  await expect(gridPhoto).toBeVisible();

  expect((await page.request.post(`${E2E_BASE_URL}/api/block/user`, { data: { blockUid: uploader.uid } })).ok()).toBe(
    true,
  );
  home = await page.goto('/en/');
  await expect(track).toHaveCount(0);
  await expect(homePhoto).toHaveCount(0);
  expect(home!.headers()['cache-control']).toBe('private, no-store');
  const grid = await page.goto('/en/photo');
  await expect(page.locator('[data-list=photo]')).toBeVisible();
  await expect(gridPhoto).toHaveCount(0);
  expect(grid!.headers()['cache-control']).toBe('private, no-store');
  await page.goto('/en/audio');
  await expect(page.locator(`a[href$="/audio/ka${audioId}"]`)).toHaveCount(0);

  // A guest still sees them, in a page caches may share.
  await page.context().clearCookies();
  const shared = await page.goto('/en/photo');
  await expect(gridPhoto).toBeVisible();
  expect(shared!.headers()['cache-control']).toContain('public');
});

test('a member the uploader blocked is told why a comment or danmaku is refused, and keeps what they typed', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000); // publishing runs the real ffmpeg pipeline
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Strict');
  const { videoId } = await publishVideoByApi(uploaderPage, { title: 'No trolls here' });
  const troll = await signUpByApi(page, 'Rude');
  expect(
    (await uploaderPage.request.post(`${E2E_BASE_URL}/api/block/user`, { data: { blockUid: troll.uid } })).ok(),
  ).toBe(true);
  await uploaderPage.context().close();

  await page.goto(`/en/video/kv${videoId}`);
  await waitForIslands(page);
  await showPlayIntent(page);
  const danmaku = page.locator('[data-danmaku-input]');
  await danmaku.fill('first!!');
  await danmaku.press('Enter');
  await expect(page.locator('.toast', { hasText: msg('en', 'api.blockedByUploader') })).toBeVisible();
  await expect(danmaku).toHaveValue('first!!');

  await page.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(page);
  const section = page.locator('[data-comments]');
  const input = section.getByRole('textbox');
  await input.click();
  await page.keyboard.type('A long thought I do not want to lose');
  await section.locator('[data-comment-send]').click();
  await expect(section.locator('[data-comment-error]')).toHaveText(msg('en', 'api.blockedByUploader'));
  await expect(input).toHaveText('A long thought I do not want to lose');
  await expect(section.locator('[data-comments-empty]')).toBeVisible();
  if (process.env.SHOTS)
    await page.screenshot({ path: `${process.env.SHOTS}/blocked-by-uploader.png`, fullPage: true });
});

test('comments matching the member’s keywords and expressions are left out, with a note saying how many', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const talkerPage = await (await browser.newContext()).newPage();
  await signUpByApi(talkerPage, 'Talkative');
  const { videoId } = await publishVideoByApi(talkerPage, { title: 'Finale discussion' });
  for (const text of ['What a finale', 'SPOILER: the hero wins', 'Episode 12 was better']) {
    expect(
      (await talkerPage.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, { data: { videoId, text } })).ok(),
    ).toBe(true);
  }
  await talkerPage.context().close();

  await signUpByApi(page, 'Careful');
  await page.request.post(`${E2E_BASE_URL}/api/block/keyword`, { data: { blockKeyword: 'spoiler' } });
  await page.request.post(`${E2E_BASE_URL}/api/block/regex`, { data: { blockRegex: 'episode \\d+' } });
  await page.goto(`/en/video/kv${videoId}`);
  await page.locator('astro-island:has([data-comments])').scrollIntoViewIfNeeded();
  await waitForIslands(page);
  const section = page.locator('[data-comments]');
  await expect(section.locator('[data-comment] [data-comment-text]')).toHaveText(['What a finale']);
  await expect(section.locator('[data-comments-hidden]')).toHaveText(
    fill(msg('en', 'comments.hiddenByBlocks'), { count: 2 }),
  );
  await expect(section.locator('[data-comment-count]')).toHaveText('3');
  if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/comments-hidden.png`, fullPage: true });
});
