/**
 * Collections as members use them: save a video to a new private collection from the video page,
 * find it on /collections, see that another member finds it nowhere (not on the owner's user
 * page, not at its address); and a public collection played from its page goes on to the next
 * video when the first ends, with auto-play next switched on.
 */
import { expect, test, type Page } from '@playwright/test';
import { msg, publishVideoByApi, signUpByApi, waitForIslands } from './helpers.ts';

const uidOf = async (page: Page) => Number((await page.context().cookies()).find((c) => c.name === 'uid')!.value);

test('a video saved to a new private collection is on /collections and invisible to others', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Kirara');
  const video = await publishVideoByApi(uploaderPage, { title: 'Harbour lights at dusk', seconds: 3 });
  await signUpByApi(page, 'Collector');
  const me = await uidOf(page);

  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  await page.locator('[data-add-to-collection-button]').click();
  const dialog = page.locator('[data-collection-dialog]');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText(msg('en', 'collections.none'));
  await dialog.locator('[data-collection-new-title]').fill('Evening walks');
  await expect(dialog.getByRole('radio', { name: msg('en', 'collections.private') })).toBeChecked();
  await dialog.locator('[data-collection-new-submit]').click();
  const choice = dialog.locator('[data-collection-choice]');
  await expect(choice).toBeChecked();
  const collectionId = Number(await choice.getAttribute('data-collection-choice'));
  await dialog.getByRole('button', { name: msg('en', 'collections.close') }).click();
  await expect(dialog).toBeHidden();

  await page.goto('/en/collections');
  const card = page.locator(`.collection-card[data-collection-id="${collectionId}"]`);
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('data-visibility', 'private');
  await expect(card.locator('.video-badge')).toHaveText(msg('en', 'collections.videoCount').replace('{{count}}', '1'));
  // The owner sees it on their own user page too, and at its address.
  await page.goto(`/en/user/${me}/collections`);
  await expect(page.locator(`[data-user-collections="ready"] [data-collection-id="${collectionId}"]`)).toBeVisible();
  await page.goto(`/en/collections/${collectionId}`);
  await expect(page.locator(`[data-collection-page="${collectionId}"] h1`)).toHaveText('Evening walks');
  await expect(page.locator(`.video-card[data-video-id="${video.videoId}"]`)).toBeVisible();

  // Another member: not on the user page, and its address is not found.
  const other = await (await browser.newContext()).newPage();
  await signUpByApi(other, 'Passerby');
  await other.goto(`/en/user/${me}/collections`);
  await expect(other.locator('[data-user-collections="empty"]')).toHaveText(msg('en', 'collections.userEmpty'));
  const answer = await other.goto(`/en/collections/${collectionId}`);
  expect(answer?.status()).toBe(404);
  await expect(other.locator(`[data-collection-page]`)).toHaveCount(0);
  // A guest neither.
  const guest = await (await browser.newContext()).newPage();
  expect((await guest.goto(`/en/collections/${collectionId}`))?.status()).toBe(404);
  await Promise.all([uploaderPage.context().close(), other.context().close(), guest.context().close()]);
});

test('a collection page plays through to the next video with auto-play next', async ({ browser, page }) => {
  test.setTimeout(180_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Sakura');
  const first = await publishVideoByApi(uploaderPage, { title: 'Part one: the station', seconds: 2 });
  const second = await publishVideoByApi(uploaderPage, { title: 'Part two: the train', seconds: 2 });
  await signUpByApi(page, 'Traveller');
  const created = await page.request.post('/api/collection/create', { data: { title: 'The journey', visibility: 'public', videoId: first.videoId } });
  const { collectionId } = (await created.json()).collection;
  expect((await page.request.post('/api/collection/addVideo', { data: { collectionId, videoId: second.videoId } })).status()).toBe(200);

  await page.goto(`/en/collections/${collectionId}`);
  await expect(page.locator('.video-card .video-title')).toHaveText([first.title, second.title]);
  await page.locator('[data-play-all]').click();
  await expect(page).toHaveURL(new RegExp(`/en/video/kv${first.videoId}\\?collection=${collectionId}$`));
  await waitForIslands(page);
  const playlist = page.locator(`[data-collection-playlist="${collectionId}"]`);
  await expect(playlist.locator('[aria-current="page"]')).toHaveAttribute('data-playlist-video', String(first.videoId));
  await playlist.locator('[data-autoplay-next-switch]').check();

  // The first video plays to its end: the next one opens, still in the collection.
  const video = page.locator('video[data-video]');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.duration > 0), { timeout: 20_000 }).toBe(true);
  await video.evaluate((v: HTMLVideoElement) => { v.muted = true; v.currentTime = Math.max(0, v.duration - 0.5); return v.play(); });
  await expect(page).toHaveURL(new RegExp(`/en/video/kv${second.videoId}\\?collection=${collectionId}$`), { timeout: 20_000 });
  await expect(page.locator(`[data-collection-playlist="${collectionId}"] [aria-current="page"]`)).toHaveAttribute('data-playlist-video', String(second.videoId));
  await uploaderPage.context().close();
});
