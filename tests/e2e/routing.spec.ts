/**
 * Navigation rules before and around the pages: trailing slashes, error routes, the 404 page
 * and the canonical addresses of videos and users.
 */
import { test, expect } from '@playwright/test';
import { msg, pathOf, responseChain } from './helpers.ts';

test.describe('trailing slash', () => {
  test('/search/ is moved permanently to /search', async ({ page }) => {
    const response = await page.goto('/search/');
    expect(pathOf(page)).toBe('/search');
    expect(await responseChain(response)).toEqual([
      { path: '/search/', status: 301 },
      { path: '/search', status: 200 },
    ]);
    await expect(page.locator('#main h1')).toHaveText(msg('zhs', 'page.search'));
  });

  test('/en/ (a locale root) keeps its slash and is served directly', async ({ page }) => {
    const response = await page.goto('/en/');
    expect(response?.status()).toBe(200);
    expect(response?.request().redirectedFrom()).toBeNull();
    expect(pathOf(page)).toBe('/en/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  });

  test('a query string survives the trailing-slash redirect', async ({ page }) => {
    await page.goto('/search/?keyword=miku');
    const url = new URL(page.url());
    expect(url.pathname).toBe('/search');
    expect(url.searchParams.get('keyword')).toBe('miku');
  });
});

test.describe('error routes', () => {
  test('/error/233 is the laughing page: 乐 in the heading', async ({ page }) => {
    const response = await page.goto('/error/233');
    // The joke page is served as a not-found page (error-route.ts httpStatusFor).
    expect(response?.status()).toBe(404);
    await expect(page.locator('.error-page h1')).toHaveText('乐');
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'not-found');
    await expect(page.locator('.error-page .error-code')).toHaveText('233');
    await expect(page.locator('.error-page')).toContainText(msg('zhs', 'error.joke.body'));
  });

  test('/error/601 goes to /unsupported', async ({ page }) => {
    const response = await page.goto('/error/601');
    expect(pathOf(page)).toBe('/unsupported');
    expect(response?.status()).toBe(200);
    expect((await responseChain(response))[0].status).toBe(302);
    await expect(page.locator('[data-error-variant="unsupported"] h1')).toHaveText(msg('zhs', 'unsupported.title'));
  });

  test('/en/error/601 stays in English', async ({ page }) => {
    await page.goto('/en/error/601');
    expect(pathOf(page)).toBe('/en/unsupported');
    await expect(page.locator('[data-error-variant="unsupported"] h1')).toHaveText(msg('en', 'unsupported.title'));
  });

  test('an unknown path answers 404 "Page Not Found: /nope"', async ({ page }) => {
    const response = await page.goto('/nope');
    expect(response?.status()).toBe(404);
    expect(pathOf(page)).toBe('/nope');
    await expect(page.getByText('Page Not Found: /nope', { exact: true })).toBeVisible();
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'not-found');
    await expect(page.locator('.error-page h1')).toHaveText(msg('zhs', 'error.notFound.title'));
    await expect(page).toHaveTitle(`404 Not Found - ${msg('zhs', 'site.name')}`);
  });

  test('an unknown path under a locale is a 404 in that language', async ({ page }) => {
    const response = await page.goto('/en/nope');
    expect(response?.status()).toBe(404);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(page.getByText('Page Not Found: /en/nope', { exact: true })).toBeVisible();
    await expect(page.locator('.error-page h1')).toHaveText(msg('en', 'error.notFound.title'));
  });

  test('/error/403 shows the forbidden variant with status 403', async ({ page }) => {
    const response = await page.goto('/error/403');
    expect(response?.status()).toBe(403);
    const section = page.locator('[data-error-variant="forbidden"]');
    await expect(section).toBeVisible();
    await expect(section.locator('h1')).toHaveText(msg('zhs', 'error.forbidden.title'));
    await expect(section.locator('.error-message')).toHaveText('Forbidden');
  });

  test('/error/abc answers 404 "Page Not Found: /error/abc"', async ({ page }) => {
    const response = await page.goto('/error/abc');
    expect(response?.status()).toBe(404);
    await expect(page.getByText('Page Not Found: /error/abc', { exact: true })).toBeVisible();
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'not-found');
  });

  test('/error with no code shows normally with status 200', async ({ page }) => {
    const response = await page.goto('/error');
    expect(response?.status()).toBe(200);
    expect(pathOf(page)).toBe('/error');
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'not-found');
    await expect(page.locator('.error-page h1')).toHaveText(msg('zhs', 'error.notFound.title'));
  });

  test('error pages hide the bottom nav and stop the body scrolling', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/error/403');
    await expect(page.locator('.bottom-nav')).toHaveCount(0);
    await expect(page.locator('body')).toHaveClass(/no-scroll/);
  });
});

test.describe('extra segments and ids', () => {
  // Other tests publish videos on the same server: this KVID is one no test reaches.
  test('/video/kv999999/extra -> /video/kv999999 -> /error/301 (no such video)', async ({ page }) => {
    const response = await page.goto('/video/kv999999/extra');
    expect(pathOf(page)).toBe('/error/301');
    expect(await responseChain(response)).toEqual([
      { path: '/video/kv999999/extra', status: 301 },
      { path: '/video/kv999999', status: 302 },
      { path: '/error/301', status: 404 },
    ]);
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'redirect');
    await expect(page.locator('.error-page h1')).toHaveText(msg('zhs', 'error.redirect.title'));
  });

  test('/user/999999/foo -> /user/999999, a 404 page since that user does not exist', async ({ page }) => {
    const response = await page.goto('/user/999999/foo');
    expect(pathOf(page)).toBe('/user/999999');
    expect(await responseChain(response)).toEqual([
      { path: '/user/999999/foo', status: 301 },
      { path: '/user/999999', status: 404 },
    ]);
    await expect(page.locator('.error-page')).toHaveAttribute('data-error-variant', 'not-found');
    await expect(page.locator('.error-page')).toContainText(msg('zhs', 'error.userNotFound'));
    await expect(page.locator('.error-page .error-message')).toHaveText('用户不存在');
  });

  test('/user/abc is a 404 saying 不合法', async ({ page }) => {
    const response = await page.goto('/user/abc');
    expect(response?.status()).toBe(404);
    expect(pathOf(page)).toBe('/user/abc');
    await expect(page.locator('.error-page .error-message')).toHaveText('不合法');
  });
});
