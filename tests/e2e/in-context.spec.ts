/**
 * The in-context translation mode (SPEC §4) round trip: choosing `ii` shows the logo with the
 * root hidden, then reloads into the ii address, where (and only where) the translation script
 * is loaded from PUBLIC_IN_CONTEXT_SCRIPT_URL; its escape leads to /settings/language, and back
 * in a language the script is gone. The script's address is answered with a local file.
 */
import { expect, test } from '@playwright/test';
import { readRuntimeConfig } from '../../src/lib/config.ts';
import { logInAsAdmin, msg, waitForShell } from './helpers.ts';

const SCRIPT_URL = readRuntimeConfig(process.env).inContextScriptUrl;
// This test is about the mode, not the offline copy: no service worker between page and script.
test.use({ serviceWorkers: 'block' });

declare global {
  interface Window {
    __inContextStarted?: boolean;
    __inContextProject?: string;
    __inContextEscape?: () => void;
  }
}

test('ii mode: logo and hidden root, reload into ii with the script, escape to the language settings', async ({
  page,
}) => {
  const loadedOn: string[] = [];
  await page.route(SCRIPT_URL, (route) => {
    loadedOn.push(new URL(page.url()).pathname);
    return route.fulfill({ path: 'tests/fixtures/in-context-script.js', contentType: 'text/javascript' });
  });
  await page.goto('/en/search');
  await waitForShell(page);

  // The logo lives for 250 ms: what the page showed is recorded as it happens, kept across the reload.
  await page.evaluate(() => {
    new MutationObserver(() => {
      const logo = document.querySelector('[data-in-context-logo] img');
      if (logo && !sessionStorage.getItem('seen')) {
        sessionStorage.setItem(
          'seen',
          JSON.stringify({
            logo: logo.getAttribute('src'),
            rootHidden: document.getElementById('root')!.hidden,
            at: Date.now(),
          }),
        );
      }
    }).observe(document.body, { childList: true });
    addEventListener('pagehide', () => sessionStorage.setItem('left', String(Date.now())));
  });
  // A visitor's menu does not offer it (a tool for translators); an administrator's does.
  await page.locator('[data-language-menu] summary').click();
  await expect(page.locator('[data-switch-locale="ii"]')).toBeHidden();
  await logInAsAdmin(page);
  await page.goto('/en/search');
  await waitForShell(page);
  await page.evaluate(() => {
    new MutationObserver(() => {
      const logo = document.querySelector('[data-in-context-logo] img');
      if (logo && !sessionStorage.getItem('seen')) {
        sessionStorage.setItem(
          'seen',
          JSON.stringify({
            logo: logo.getAttribute('src'),
            rootHidden: document.getElementById('root')!.hidden,
            at: Date.now(),
          }),
        );
      }
    }).observe(document.body, { childList: true });
    addEventListener('pagehide', () => sessionStorage.setItem('left', String(Date.now())));
  });
  await page.locator('[data-language-menu] summary').click();
  await page.locator('[data-switch-locale="ii"]').click();
  await page.waitForURL((url) => url.pathname === '/ii/search');
  await waitForShell(page);
  const seen = await page.evaluate(() => ({
    ...JSON.parse(sessionStorage.getItem('seen') ?? '{}'),
    left: Number(sessionStorage.getItem('left')),
  }));
  expect(seen).toMatchObject({ logo: '/favicon.svg', rootHidden: true });
  expect(seen.left - seen.at).toBeGreaterThanOrEqual(250 - 5); // the reload waits 250 ms (clock granularity aside)
  await expect.poll(() => page.evaluate(() => window.__inContextStarted)).toBe(true);
  expect(await page.evaluate(() => window.__inContextProject)).toBe('kiraboshi');
  expect(loadedOn).toEqual(['/ii/search']);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ii');
  await expect(page.locator('.in-context-banner')).toContainText(msg('ii', 'inContext.banner'));
  await expect(page.locator('.in-context-banner a')).toHaveAttribute('href', '/settings/language');

  // The translator leaves through the script's escape.
  await page.evaluate(() => window.__inContextEscape?.());
  await page.waitForURL((url) => url.pathname === '/settings/language');
  await waitForShell(page);
  await expect(page.locator('h1.page-title')).toHaveText(msg('zhs', 'settings.pages.language'));
  await expect(page.locator('script[data-in-context-script]')).toHaveCount(0);
  expect(loadedOn).toHaveLength(1);

  // Choosing a language from there: an ordinary switch, no logo, no script.
  await page.locator('.language-list a[hreflang="en-US"]').click();
  await page.waitForURL((url) => url.pathname === '/en/settings/language');
  await waitForShell(page);
  expect(loadedOn).toHaveLength(1);
});
