import { expect, test } from '@playwright/test';
import { publishVideoByApi, signUpByApi, waitForIslands } from './helpers.ts';

test('screens', async ({ browser, page }) => {
  test.setTimeout(300_000);
  const up = await (await browser.newContext()).newPage();
  await signUpByApi(up, 'Kirara');
  const a = await publishVideoByApi(up, { title: 'Harbour lights at dusk', seconds: 2 });
  const b = await publishVideoByApi(up, { title: 'A very long title about the night train that crosses the sleeping mountains', seconds: 2 });
  const c = await publishVideoByApi(up, { title: 'Rain on the tram window', seconds: 2 });
  await signUpByApi(page, 'Collector');
  const me = Number((await page.context().cookies()).find((x) => x.name === 'uid')!.value);
  const mk = async (data: object) => (await (await page.request.post('/api/collection/create', { data })).json()).collection.collectionId as number;
  const id = await mk({ title: 'Evening walks', description: 'Slow videos for quiet evenings, collected over the years.', visibility: 'public', videoId: a.videoId });
  for (const v of [b, c]) await page.request.post('/api/collection/addVideo', { data: { collectionId: id, videoId: v.videoId } });
  await mk({ title: 'Secret stash', visibility: 'private', videoId: c.videoId });
  await up.request.delete('/api/video/delete', { data: { videoId: c.videoId } });
  for (const [w, h] of [[1280, 800], [375, 800]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const locale of ['en', 'zhs']) {
      const p = locale === 'zhs' ? '' : '/en';
      await page.goto(`${p}/collections`); await waitForIslands(page);
      await expect(page.locator('[data-collections-state="ready"]')).toBeVisible();
      await page.locator(`[data-collection-id="${id}"] [data-collection-order-toggle]`).click();
      await expect(page.locator('[data-order-video]').first()).toBeVisible();
      await page.screenshot({ path: `/tmp/coll/shots/mine-${locale}-${w}.png`, fullPage: true });
      await page.locator(`[data-collection-id="${id}"] [data-collection-delete]`).click();
      await page.screenshot({ path: `/tmp/coll/shots/confirm-${locale}-${w}.png` });
      await page.keyboard.press('Escape');
      await page.goto(`${p}/collections/${id}`); await waitForIslands(page);
      await page.screenshot({ path: `/tmp/coll/shots/collection-${locale}-${w}.png`, fullPage: true });
      await page.goto(`${p}/user/${me}/collections`); await waitForIslands(page);
      await expect(page.locator('[data-user-collections="ready"]')).toBeVisible();
      await page.screenshot({ path: `/tmp/coll/shots/user-${locale}-${w}.png`, fullPage: true });
      await page.goto(`${p}/video/kv${b.videoId}?collection=${id}`); await waitForIslands(page);
      await page.screenshot({ path: `/tmp/coll/shots/video-${locale}-${w}.png`, fullPage: true });
      await page.locator('[data-add-to-collection-button]').click();
      await expect(page.locator('[data-collection-choice]').first()).toBeVisible();
      await page.screenshot({ path: `/tmp/coll/shots/dialog-${locale}-${w}.png` });
    }
  }
  await page.emulateMedia({ colorScheme: 'dark' });
});
