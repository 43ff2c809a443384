/**
 * The ten interface languages as a visitor sees them: each home and sub-page in its language,
 * the language switch that keeps the route, and first-load detection at the root.
 */
import { test, expect } from '@playwright/test';
import {
  HTML_LANG,
  LOCALE_CODES,
  homePath,
  localized,
  msg,
  pathOf,
  responseChain,
  waitForIslands,
  waitForShell,
} from './helpers.ts';

test.describe('every locale renders in its own language', () => {
  for (const locale of LOCALE_CODES) {
    test(`home of ${locale} (${homePath(locale)})`, async ({ page }) => {
      const response = await page.goto(homePath(locale));
      expect(response?.status()).toBe(200);
      expect(pathOf(page)).toBe(homePath(locale));

      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[locale]);
      await expect(page.locator('html')).toHaveAttribute('data-locale', locale);
      // The home page's title is the site name alone.
      await expect(page).toHaveTitle(msg(locale, 'site.name'));

      const sideBar = page.locator('#side-bar');
      await expect(sideBar).toBeVisible();
      const homeItem = sideBar.locator(`a.side-item[href="${homePath(locale)}"]`);
      await expect(homeItem).toHaveCount(1);
      await expect(homeItem.locator('span')).toHaveText(msg(locale, 'nav.home'));
      await expect(homeItem).toHaveAttribute('aria-current', 'page');
      // The first side bar entry is home.
      await expect(sideBar.locator('a.side-item').first().locator('span')).toHaveText(msg(locale, 'nav.home'));
      await expect(page.locator('.app-bar .brand span')).toHaveText(msg(locale, 'site.name'));

      if (locale === 'ii') await expect(page.locator('.in-context-banner')).toHaveText(/⟦inContext\.banner⟧/);
      else await expect(page.locator('.in-context-banner')).toHaveCount(0);
    });

    test(`search page of ${locale} is titled 'page.search - site.name'`, async ({ page }) => {
      const response = await page.goto(localized('/search', locale));
      expect(response?.status()).toBe(200);
      await expect(page.locator('html')).toHaveAttribute('lang', HTML_LANG[locale]);
      await expect(page).toHaveTitle(`${msg(locale, 'page.search')} - ${msg(locale, 'site.name')}`);
      await expect(page.locator('#main h1')).toHaveText(msg(locale, 'page.search'));
    });
  }

  test('/en/search is titled "Search - Kiraboshi"', async ({ page }) => {
    await page.goto('/en/search');
    await expect(page).toHaveTitle('Search - Kiraboshi');
  });
});

test.describe('language switch keeps the route', () => {
  test('top bar menu: /search -> English -> /en/search', async ({ page, context }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/search');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans-CN');
    await waitForShell(page);
    await waitForIslands(page);

    // The menu's trigger is labelled with the page language's topbar.language (a button or a disclosure summary).
    const label = msg('zhs', 'topbar.language');
    const trigger = page.locator(`.app-bar :is(button, summary)[aria-label="${label}"]`);
    await expect(trigger).toHaveCount(1);
    await expect(trigger).toBeVisible();
    const popup = page.locator('.app-bar .language-popup');
    await expect(popup).toBeHidden();

    await trigger.click();
    await expect(popup).toBeVisible();
    // Nine languages for a visitor; the in-context mode (ii) is there for staff only.
    const items = popup.locator('a.language-item:visible');
    await expect(items).toHaveCount(9);
    await expect(popup.locator('[data-switch-locale="ii"]')).toBeHidden();
    await expect(items.and(page.locator('.current'))).toHaveText('简体中文');
    const english = items.filter({ hasText: /^English$/ });
    await expect(english).toHaveAttribute('href', '/en/search');
    await expect(english).toHaveAttribute('lang', 'en-US');

    await english.click();
    await page.waitForURL('**/en/search');
    expect(pathOf(page)).toBe('/en/search');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await expect(page).toHaveTitle(`${msg('en', 'page.search')} - ${msg('en', 'site.name')}`);

    const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
    expect(cookie?.value).toBe('en');
    expect(cookie?.path).toBe('/');
  });

  test('the language menu closes with Escape and keeps the page', async ({ page }) => {
    await page.goto('/en/search');
    await waitForShell(page);
    await waitForIslands(page);
    const trigger = page.locator(`.app-bar :is(button, summary)[aria-label="${msg('en', 'topbar.language')}"]`);
    const popup = page.locator('.app-bar .language-popup');
    await trigger.click();
    await expect(popup).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(popup).toBeHidden();
    expect(pathOf(page)).toBe('/en/search');
  });

  test('settings language list: /en/settings/language -> 日本語 -> /ja/settings/language', async ({
    page,
    context,
  }) => {
    await page.goto('/en/settings/language');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    await waitForShell(page);
    await waitForIslands(page);

    const list = page.locator('ul.language-list');
    await expect(list.locator('a')).toHaveCount(10);
    await expect(list.getByRole('link', { name: 'English', exact: true })).toHaveAttribute('aria-current', 'true');

    await list.getByRole('link', { name: '日本語', exact: true }).click();
    await page.waitForURL('**/ja/settings/language');
    expect(pathOf(page)).toBe('/ja/settings/language');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ja-JP');
    await expect(page.locator('.settings-content h1')).toHaveText(msg('ja', 'settings.pages.language'));
    await expect(page.locator('ul.language-list').getByRole('link', { name: '日本語', exact: true })).toHaveAttribute(
      'aria-current',
      'true',
    );

    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('ja');
  });
});

test.describe('root locale detection', () => {
  test('a Chinese browser is served / directly and gets the zhs cookie', async ({ page, context }) => {
    const response = await page.goto('/');
    expect(await responseChain(response)).toEqual([{ path: '/', status: 200 }]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans-CN');
    expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('zhs');
  });

  test.describe('with a Japanese browser', () => {
    test.use({ locale: 'ja-JP' });

    test('/ answers in Japanese at once, shows /ja/ and remembers ja in the cookie', async ({ page, context }) => {
      expect(await page.evaluate(() => navigator.language)).toBe('ja-JP');
      const response = await page.goto('/');
      expect(pathOf(page)).toBe('/ja/');
      // One request: no redirect before the page.
      expect(await responseChain(response)).toEqual([{ path: '/', status: 200 }]);
      await expect(page.locator('html')).toHaveAttribute('lang', 'ja-JP');
      const cookie = (await context.cookies()).find((c) => c.name === 'i18n_redirected');
      expect(cookie?.value).toBe('ja');
      expect(cookie?.sameSite).toBe('Lax');
    });

    test('a saved i18n_redirected=fr cookie wins over the browser language', async ({ page, context, baseURL }) => {
      await context.addCookies([{ name: 'i18n_redirected', value: 'fr', url: baseURL! }]);
      const response = await page.goto('/');
      expect(pathOf(page)).toBe('/fr/');
      expect((await responseChain(response))[0]).toEqual({ path: '/', status: 200 });
      await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
      expect((await context.cookies()).find((c) => c.name === 'i18n_redirected')?.value).toBe('fr');
    });

    test('a prefixed page is never redirected by detection', async ({ page }) => {
      const response = await page.goto('/search');
      expect(await responseChain(response)).toEqual([{ path: '/search', status: 200 }]);
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans-CN');
    });
  });
});
