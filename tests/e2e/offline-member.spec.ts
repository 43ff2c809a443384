/**
 * Offline, a member stays a member: a page reloaded without a connection shows them logged in
 * (their name on the account button), not as a guest, and the player's "needs a connection"
 * notice is readable over the brightest frame (WCAG AA). Back online with the session ended on
 * the server, they are a guest again. No console or page error while offline.
 */
import { expect, test, type Page } from '@playwright/test';
import { E2E_BASE_URL, msg, publishVideoByApi, shoot, signUpByApi, waitForIslands, waitForShell } from './helpers.ts';

async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}
async function kept(page: Page, path: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(
          async (p) => !!(await (await caches.open('kiraboshi-pages')).match(new URL(p, location.origin).href)),
          path,
        ),
      { timeout: 15_000 },
    )
    .toBe(true);
}

/** WCAG contrast of the notice's text against its own background laid over a white frame. */
const noticeContrast = (page: Page) =>
  page.locator('[data-player-offline]').evaluate((el) => {
    const rgba = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const [r, g, b, a = 1] = rgba(getComputedStyle(el).backgroundColor);
    const over = (c: number) => c * a + 255 * (1 - a);
    const luminance = (channels: number[]) => {
      const [R, G, B] = channels.map((c) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * R + 0.7152 * G + 0.0722 * B;
    };
    const text = luminance(rgba(getComputedStyle(el).color).slice(0, 3));
    const back = luminance([over(r), over(g), over(b)]);
    return (Math.max(text, back) + 0.05) / (Math.min(text, back) + 0.05);
  });

test('offline, a member is still shown logged in, and the video notice is readable over a white frame', async ({
  page,
  context,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // The browser reports the requests that fail while offline; those are the test's own doing.
    if (
      message.type() === 'error' &&
      !/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/.test(message.text())
    )
      errors.push(`console.error: ${message.text()}`);
  });
  await signUpByApi(page, 'Night owl');
  const { videoId } = await publishVideoByApi(page, { title: 'Offline member video', seconds: 4 });
  const pages = ['/en/', `/en/video/kv${videoId}`];
  await page.goto('/en/');
  await waitForShell(page);
  await controlled(page);
  const account = page.locator('[data-auth-button]');
  await expect(account).toHaveAttribute('data-logged-in', '');
  for (const path of pages) {
    await page.goto(path);
    await waitForIslands(page);
    await kept(page, path);
  }

  await context.setOffline(true);
  await page.goto('/en/');
  await page.reload();
  await waitForShell(page);
  await expect(account).toHaveAttribute('data-logged-in', '');
  await expect(account.locator('[data-auth-label]')).toHaveText('Night owl');

  await page.goto(`/en/video/kv${videoId}`);
  await waitForIslands(page);
  await expect(account).toHaveAttribute('data-logged-in', '');
  await expect(page.locator('[data-player-offline]')).toHaveText(msg('en', 'player.needsConnection'));
  expect(await noticeContrast(page)).toBeGreaterThanOrEqual(4.5);
  await shoot(page, 'offline-member-video');

  expect(errors).toEqual([]);

  // Online again, with the session ended elsewhere: the server's refusal makes them a guest
  // (its 401 answers are reported by the browser, so no error check past this point).
  await context.setOffline(false);
  await context.clearCookies();
  await page.context().addCookies([{ name: 'uid', value: '999999', url: E2E_BASE_URL }]);
  await page.goto('/en/');
  await waitForShell(page);
  await expect(account).not.toHaveAttribute('data-logged-in', '');
});
