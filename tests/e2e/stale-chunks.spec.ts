/**
 * A page opened before a deploy asks for an island chunk the new build no longer has (SPEC §8
 * chunk-error event, §9 reload guard): the page reloads once and comes back alive; when the chunk
 * is still missing after that reload, it prompts instead of reloading again.
 */
import { expect, test, type Page } from '@playwright/test';
import { msg, waitForShell } from './helpers.ts';

// The service worker would answer chunk requests itself, out of the test's reach.
test.use({ serviceWorkers: 'block' });

const SEARCH = '/en/search?keyword=kiraboshi';
const searchIsland = (page: Page) => page.locator('astro-island[component-url*="SearchPage"]');

/** The search island's chunk path, as the built page names it. */
async function islandChunk(page: Page): Promise<string> {
  const html = await (await page.request.get(SEARCH)).text();
  const url = /<astro-island[^>]*component-url="([^"]*SearchPage[^"]*)"/.exec(html)?.[1];
  expect(url, 'the search page renders its island').toBeTruthy();
  return new URL(url!, 'http://x').pathname;
}

/** Answers the chunk with 404 (as after a deploy) `times` times, then serves it; counts page loads. */
async function removeChunk(page: Page, chunk: string, times: number) {
  const loads = { count: 0 };
  // Documents asked for, not load events: a stale page reloads before its own load event.
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loads.count += 1;
  });
  let refused = 0;
  await page.route(
    (url) => url.pathname === chunk,
    async (route) => {
      if (refused < times) {
        refused += 1;
        await route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone with the last deploy' });
      } else await route.continue();
    },
  );
  return loads;
}

test('an island whose chunk is gone reloads the page once and comes back alive', async ({ page }) => {
  const chunk = await islandChunk(page);
  // The island tries twice (Astro retries once after a second); both fail on the stale page.
  const loads = await removeChunk(page, chunk, 2);
  await page.goto(SEARCH);
  await expect(searchIsland(page)).not.toHaveAttribute('ssr', { timeout: 15_000 });
  await waitForShell(page);
  expect(loads.count).toBe(2); // the stale page, then the one reload
  await expect(page.locator('.toast', { hasText: msg('en', 'toast.newVersion') })).toHaveCount(0);
});

test('a chunk still missing after the reload prompts for a new version instead of looping', async ({ page }) => {
  const chunk = await islandChunk(page);
  const loads = await removeChunk(page, chunk, Number.POSITIVE_INFINITY);
  await page.goto(SEARCH);
  const prompt = page.locator('.toast', { hasText: msg('en', 'toast.newVersion') });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  expect(loads.count).toBe(2); // one guarded reload, never a second
  await expect(prompt.getByRole('button', { name: msg('en', 'toast.reload') })).toBeVisible();
  await expect(searchIsland(page)).toHaveAttribute('ssr');
});
