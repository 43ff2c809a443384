/**
 * Shell behaviour every page shares: the navigation guard with its toast, the console
 * greeting and the hidden character on window.kirara.
 */
import { test, expect } from '@playwright/test';
import { msg, waitForShell } from './helpers.ts';

test.describe('navigation guard', () => {
  test('script and external links are refused with a toast', async ({ page }) => {
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.goto('/en/');
    await waitForShell(page);
    const start = page.url();

    await page.evaluate(() => {
      const main = document.getElementById('main')!;
      main.insertAdjacentHTML(
        'afterbegin',
        '<p id="injected"><a id="bad" href="javascript:alert(1)">x</a> <a id="ext" href="https://example.invalid/">y</a></p>',
      );
    });

    const toasts = page.locator('#toast-area .toast');
    const refused = msg('en', 'toast.navigationRefused');

    await page.locator('#bad').click();
    await expect(toasts).toHaveCount(1);
    await expect(toasts.first()).toBeVisible();
    await expect(toasts.first()).toContainText(refused);
    await expect(toasts.first()).toHaveClass(/toast-warning/);
    expect(page.url()).toBe(start);
    expect(dialogs).toEqual([]);

    // The toast leaves by itself (2 s), then the external link gets its own.
    await expect(toasts).toHaveCount(0, { timeout: 5_000 });
    await page.locator('#ext').click();
    await expect(toasts).toHaveCount(1);
    await expect(toasts.first()).toContainText(refused);
    expect(page.url()).toBe(start);
    // The page was not left: the injected node is still there.
    await expect(page.locator('#injected')).toBeAttached();
    expect(dialogs).toEqual([]);
  });

  test('the toast is in the page language', async ({ page }) => {
    await page.goto('/ja/');
    await waitForShell(page);
    await page.evaluate(() =>
      document.getElementById('main')!.insertAdjacentHTML('afterbegin', '<a id="bad" href="javascript:void 0">x</a>'),
    );
    await page.locator('#bad').click();
    await expect(page.locator('#toast-area .toast')).toContainText(msg('ja', 'toast.navigationRefused'));
  });

  test('an ordinary in-site link still navigates', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/en/');
    await waitForShell(page);
    await page.locator('#side-bar a.side-item', { hasText: msg('en', 'nav.category') }).click();
    await page.waitForURL('**/en/category');
    await expect(page.locator('#main h1')).toHaveText(msg('en', 'page.category'));
    await expect(page.locator('#toast-area .toast')).toHaveCount(0);
  });
});

test.describe('shell globals', () => {
  test('the console greets in the page language', async ({ page }) => {
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto('/en/');
    await waitForShell(page);
    const greeting = msg('en', 'site.greeting');
    await expect.poll(() => messages.some((text) => text.includes(greeting))).toBe(true);
    expect(messages.filter((text) => text.includes(greeting))).toHaveLength(1);
  });

  test('window.kirara.sex accepts only male or female', async ({ page }) => {
    await page.goto('/en/');
    await waitForShell(page);
    const result = await page.evaluate(() => {
      const kirara = (window as unknown as { kirara: { sex: string; name: string } }).kirara;
      const before = kirara.sex;
      let error = '';
      try {
        kirara.sex = 'other';
      } catch (e) {
        error = `${(e as Error).name}: ${(e as Error).message}`;
      }
      const afterOther = kirara.sex;
      kirara.sex = 'male';
      return { name: kirara.name, before, error, afterOther, afterMale: kirara.sex };
    });
    expect(result.name).toBe('Kirara');
    expect(result.before).toBe('female');
    expect(result.error).toMatch(/^TypeError: /);
    expect(result.afterOther).toBe('female');
    expect(result.afterMale).toBe('male');
  });

  test('the page sends no errors to the console', async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.goto('/en/search');
    await waitForShell(page);
    await page.waitForLoadState('networkidle');
    expect(errors).toEqual([]);
  });
});

test.describe('loading bar error state (SPEC §4)', () => {
  // The service worker would make the island's calls itself, out of the test's reach.
  test.use({ serviceWorkers: 'block' });
  // The error state lasts under a second; an observer set before the page's scripts keeps a record of it.
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      const seen: string[] = ((window as unknown as { barStates: string[] }).barStates = []);
      new MutationObserver(() => {
        const bar = document.getElementById('loading-bar');
        if (bar?.classList.contains('error') && !bar.hidden) seen.push('error');
      }).observe(document, { subtree: true, attributes: true, attributeFilter: ['class', 'hidden'] });
    });
  });
  const errorShown = (page: import('@playwright/test').Page) =>
    page.waitForFunction(() => (window as unknown as { barStates: string[] }).barStates.includes('error'));

  test('a navigation that ends on an error page marks the bar', async ({ page }) => {
    await page.goto('/en/');
    await waitForShell(page);
    await page.goto('/en/video/kv999999999');
    await expect(page.locator('.error-page')).toBeVisible();
    await errorShown(page);
  });

  test('an island call the server fails marks the bar', async ({ page }) => {
    await page.goto('/en/search?keyword=kiraboshi');
    await waitForShell(page);
    await expect(page.locator('astro-island[component-url*="SearchPage"]')).not.toHaveAttribute('ssr');
    await page.route('**/api/video/tag/search**', (route) => route.fulfill({ status: 502, body: 'upstream down' }));
    await page.locator('[data-tag-input]').fill('kira');
    await expect(page.locator('[data-state="no-tags"]')).toBeVisible();
    await errorShown(page);
  });
});
