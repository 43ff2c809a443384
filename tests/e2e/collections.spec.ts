/**
 * Collections as members use them: save a video to a new private collection from the video page,
 * find it on /collections, see that another member finds it nowhere (not on the owner's user
 * page, not at its address); and a public collection played from its page goes on to the next
 * video when the first ends, with auto-play next switched on.
 */
import { expect, test, type Page } from '@playwright/test';
import { msg, publishVideoByApi, signUpByApi, waitForIslands } from './helpers.ts';

const uidOf = async (page: Page) => Number((await page.context().cookies()).find((c) => c.name === 'uid')!.value);

test('a video saved to a new private collection is on /collections and invisible to others', async ({
  browser,
  page,
}) => {
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
  const created = await page.request.post('/api/collection/create', {
    data: { title: 'The journey', visibility: 'public', videoId: first.videoId },
  });
  const { collectionId } = (await created.json()).collection;
  expect(
    (await page.request.post('/api/collection/addVideo', { data: { collectionId, videoId: second.videoId } })).status(),
  ).toBe(200);

  await page.goto(`/en/collections/${collectionId}`);
  await expect(page.locator('.video-card .video-title')).toHaveText([first.title, second.title]);
  await page.locator('[data-play-all]').click();
  await expect(page).toHaveURL(new RegExp(`/en/video/kv${first.videoId}\\?collection=${collectionId}$`));
  await waitForIslands(page);
  const playlist = page.locator(`[data-collection-playlist="${collectionId}"]`);
  await expect(playlist.locator('[aria-current="page"]')).toHaveAttribute('data-playlist-video', String(first.videoId));
  await playlist.locator('[data-autoplay-next-switch]').check();

  // The first video plays to its end: the next one opens, still in the collection.
  // Nothing loads before play (media-loading.ts): the viewer presses play, then skips to the end.
  const video = page.locator('video[data-video]');
  await video.evaluate(async (v: HTMLVideoElement) => {
    v.muted = true;
    await v.play().catch(() => {});
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => Number.isFinite(v.duration) && v.duration > 0), {
      timeout: 20_000,
    })
    .toBe(true);
  await video.evaluate((v: HTMLVideoElement) => {
    v.currentTime = Math.max(0, v.duration - 0.5);
    return v.play();
  });
  await expect(page).toHaveURL(new RegExp(`/en/video/kv${second.videoId}\\?collection=${collectionId}$`), {
    timeout: 20_000,
  });
  await expect(page.locator(`[data-collection-playlist="${collectionId}"] [aria-current="page"]`)).toHaveAttribute(
    'data-playlist-video',
    String(second.videoId),
  );
  await uploaderPage.context().close();
});

test('on /collections the owner reorders by keyboard and by drag, edits and deletes after a confirmation', async ({
  browser,
  page,
}) => {
  test.setTimeout(180_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Hikari');
  const videos = [];
  for (const title of ['First light', 'Noon', 'Evening'])
    videos.push(await publishVideoByApi(uploaderPage, { title, seconds: 2 }));
  await signUpByApi(page, 'Curator');
  const created = await page.request.post('/api/collection/create', {
    data: { title: 'A day', videoId: videos[0].videoId },
  });
  const { collectionId } = (await created.json()).collection;
  for (const v of videos.slice(1))
    await page.request.post('/api/collection/addVideo', { data: { collectionId, videoId: v.videoId } });
  const order = async () =>
    (
      (await (await page.request.get(`/api/collection/get?collectionId=${collectionId}`)).json()).videos as Array<{
        title: string;
      }>
    ).map((v) => v.title);

  await page.goto('/en/collections');
  await waitForIslands(page);
  const card = page.locator(`.collection-card[data-collection-id="${collectionId}"]`);
  await card.locator('[data-collection-order-toggle]').click();
  const rows = card.locator('[data-order-video]');
  await expect(rows).toHaveCount(3);
  // Keyboard: the last one up twice; the moved row keeps the focus.
  await rows.nth(2).focus();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(rows.nth(1)).toBeFocused();
  await page.keyboard.press('Alt+ArrowUp');
  await expect(rows.first()).toContainText('Evening');
  await expect.poll(order).toEqual(['Evening', 'First light', 'Noon']);
  // Drag: the first row onto the last.
  await rows.first().dragTo(rows.nth(2));
  await expect.poll(order).toEqual(['First light', 'Noon', 'Evening']);
  // The buttons name the video they move.
  await card
    .getByRole('button', { name: msg('en', 'collections.moveDown').replace('{{title}}', 'First light') })
    .click();
  await expect.poll(order).toEqual(['Noon', 'First light', 'Evening']);

  // Edit: rename and make it public.
  await card.locator('[data-collection-edit]').click();
  await card.locator('[data-field="title"]').fill('A long day');
  await card.getByRole('radio', { name: msg('en', 'collections.public') }).check();
  await card.getByRole('button', { name: msg('en', 'collections.save') }).click();
  await expect(card.locator('[data-collection-title]')).toHaveText('A long day');
  await expect(card).toHaveAttribute('data-visibility', 'public');

  // Delete asks first; cancelling keeps it.
  await card.locator('[data-collection-delete]').click();
  const confirm = page.locator('[data-collection-confirm]');
  await expect(confirm).toContainText('A long day');
  await confirm.getByRole('button', { name: msg('en', 'collections.cancel') }).click();
  await expect(card).toBeVisible();
  await card.locator('[data-collection-delete]').click();
  await confirm.locator('[data-collection-confirm-delete]').click();
  await expect(card).toHaveCount(0);
  expect((await page.request.get(`/api/collection/get?collectionId=${collectionId}`)).status()).toBe(404);
  await uploaderPage.context().close();
});

test('guests are asked to log in to add to a collection, and on /collections', async ({ page, browser }) => {
  test.setTimeout(120_000);
  const uploaderPage = await (await browser.newContext()).newPage();
  await signUpByApi(uploaderPage, 'Tsuki');
  const video = await publishVideoByApi(uploaderPage, { title: 'Moonrise', seconds: 2 });
  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  await page.locator('[data-add-to-collection-button]').click();
  await expect(page.locator('[data-collection-dialog]')).toBeHidden();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.goto('/en/collections');
  await expect(page.locator('[data-collections-state="guest"]')).toContainText(msg('en', 'collections.guest'));
  await uploaderPage.context().close();
});
