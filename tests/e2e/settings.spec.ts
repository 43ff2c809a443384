/**
 * Settings: the remembered last page, the exit route, the administrator pages a guest may
 * not open, and the shell parts settings hides.
 */
import { test, expect } from '@playwright/test';
import { msg, pathOf, responseChain } from './helpers.ts';

test.describe('settings routes', () => {
  test('a fresh visitor opening /settings lands on /settings/appearance', async ({ page }) => {
    await page.goto('/settings');
    await page.waitForURL('**/settings/appearance');
    expect(pathOf(page)).toBe('/settings/appearance');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('zhs', 'settings.pages.appearance'));
    await expect(page.locator('.settings-nav a[aria-current="page"]')).toHaveText(
      msg('zhs', 'settings.pages.appearance'),
    );
  });

  test('/settings reopens the last visited settings page', async ({ page }) => {
    await page.goto('/settings/privacy');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('zhs', 'settings.pages.privacy'));
    await page.goto('/settings');
    await page.waitForURL('**/settings/privacy');
    expect(pathOf(page)).toBe('/settings/privacy');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('zhs', 'settings.pages.privacy'));
  });

  test('the last page is remembered across languages', async ({ page }) => {
    await page.goto('/settings/about');
    await page.goto('/en/settings');
    await page.waitForURL('**/en/settings/about');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('en', 'settings.pages.about'));
  });

  test('/en/settings/exit returns to the page settings was opened from', async ({ page }) => {
    await page.goto('/en/search');
    await page.goto('/en/settings/about');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('en', 'settings.pages.about'));
    await page.goto('/en/settings/exit');
    await page.waitForURL('**/en/search');
    expect(pathOf(page)).toBe('/en/search');
    await expect(page.locator('#main h1')).toHaveText(msg('en', 'page.search'));
  });

  test('the settings exit link goes back the same way', async ({ page }) => {
    await page.goto('/en/category');
    await page.goto('/en/settings/privacy');
    await page.locator('.settings-exit').click();
    await page.waitForURL('**/en/category');
    await expect(page.locator('#main h1')).toHaveText(msg('en', 'page.category'));
  });

  test('exit with no remembered page goes home', async ({ page }) => {
    await page.goto('/en/settings/exit');
    await page.waitForURL((url) => url.pathname === '/en/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  });

  test('a guest opening /settings/content is sent to /settings/appearance', async ({ page }) => {
    const response = await page.goto('/settings/content');
    expect(pathOf(page)).toBe('/settings/appearance');
    expect(await responseChain(response)).toEqual([
      { path: '/settings/content', status: 302 },
      { path: '/settings/appearance', status: 200 },
    ]);
    await expect(page.locator('.settings-content h1')).toHaveText(msg('zhs', 'settings.pages.appearance'));
  });

  test('a guest opening /en/settings/user-block stays in English', async ({ page }) => {
    await page.goto('/en/settings/user-block');
    expect(pathOf(page)).toBe('/en/settings/appearance');
  });
});

test.describe('settings pages hide the app bar and bottom nav', () => {
  for (const width of [375, 1280]) {
    test(`at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/en/settings/appearance');
      await expect(page.locator('.settings-nav')).toBeVisible();
      await expect(page.locator('.app-bar')).toHaveCount(0);
      await expect(page.locator('.bottom-nav')).toHaveCount(0);
      await expect(page.locator('#side-bar')).toHaveCount(0);
      await expect(page.locator('.settings-exit')).toContainText(msg('en', 'settings.exit'));
      await expect(page).toHaveTitle(
        `${msg('en', 'settings.pages.appearance')} - ${msg('en', 'settings.title')} - ${msg('en', 'site.name')}`,
      );
      // For contrast, a normal page at the same width has them.
      await page.goto('/en/search');
      await expect(page.locator('.app-bar')).toBeVisible();
      if (width === 375) await expect(page.locator('.bottom-nav')).toBeVisible();
    });
  }
});

test('settings slides in over the page it was opened from and back out when left (SPEC §2)', async ({ page }) => {
  // Every revealed page notes the transition types it was shown with (after the page's own head script added them).
  await page.addInitScript(() => {
    addEventListener('pagereveal', (event) => {
      const transition = (event as Event & { viewTransition?: { types: Set<string> } | null }).viewTransition;
      if (!transition) return;
      setTimeout(() => {
        const seen = JSON.parse(sessionStorage.getItem('test:reveals') ?? '[]') as string[];
        sessionStorage.setItem(
          'test:reveals',
          JSON.stringify([...seen, `${location.pathname} ${[...transition.types].join(',')}`]),
        );
      });
    });
  });
  const reveals = () => page.evaluate(() => JSON.parse(sessionStorage.getItem('test:reveals') ?? '[]') as string[]);
  await page.goto('/en/search');
  await page.locator('a.icon-button[href="/en/settings"]').click();
  await expect(page.locator('.settings-content h1')).toBeVisible();
  await expect.poll(reveals).toContain('/en/settings settings-in');
  await page.locator('.settings-exit').click();
  await page.waitForURL('**/en/search');
  await expect.poll(reveals).toContain('/en/search settings-out');
  // Other pages keep the default page jump.
  await page.locator('a[href="/en/"]').first().click();
  await expect.poll(reveals).toContain('/en/ page-jump-in');
});
