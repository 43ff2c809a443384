/**
 * The installable, offline site: the manifest of every locale is valid and Chromium finds the
 * site installable; pages visited while online reload offline (the video page saying the video
 * needs a connection), a page never visited shows the offline page, and a new build prompts a
 * reload.
 */
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import {
  LOCALE_CODES,
  localized,
  msg,
  publishVideoByApi,
  signUpByApi,
  waitForIslands,
  waitForShell,
} from './helpers.ts';

/** Waits until the page is controlled by the service worker. */
async function controlled(page: Page): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
}

/** Waits until the worker kept `path` (its network-first copy is written after the answer). */
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

test('every locale has a valid web app manifest, with its icons, and Chromium finds the site installable', async ({
  page,
  request,
}) => {
  for (const locale of LOCALE_CODES) {
    const response = await request.get(`/_app/manifest-${locale}.webmanifest`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/manifest+json');
    const manifest = await response.json();
    expect(manifest).toMatchObject({
      id: '/',
      scope: '/',
      display: 'standalone',
      start_url: localized('/', locale),
      theme_color: '#f06e8e',
      background_color: '#fbf7f9',
    });
    if (locale !== 'ii') expect(manifest.name).toBe(msg(locale, 'site.name'));
    expect(manifest.short_name.length).toBeGreaterThan(0);
  }
  const manifest = await (await request.get('/_app/manifest-en.webmanifest')).json();
  const sizes = manifest.icons.map((icon: { sizes: string }) => icon.sizes);
  expect(sizes).toEqual(expect.arrayContaining(['192x192', '512x512']));
  expect(manifest.icons.some((icon: { purpose: string }) => icon.purpose === 'maskable')).toBe(true);
  for (const icon of manifest.icons as Array<{ src: string; sizes: string; type: string }>) {
    const file = await request.get(icon.src);
    expect(file.headers()['content-type']).toBe(icon.type);
    const { width, height, format } = await sharp(await file.body()).metadata();
    expect(`${width}x${height}`).toBe(icon.sizes);
    expect(format).toBe('png');
  }

  await page.goto('/en/');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/_app/manifest-en.webmanifest');
  await controlled(page);
  const cdp = await page.context().newCDPSession(page);
  const { errors } = await cdp.send('Page.getAppManifest');
  expect(errors).toEqual([]);
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  // Playwright's contexts are off the record, which Chromium always names ("in-incognito"); nothing else may be missing.
  expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
});

/**
 * Offers the install prompt as Chromium would (headless Chromium never fires it by itself): a
 * beforeinstallprompt event whose prompt() is counted and whose userChoice the test settles.
 * Answers whether the site kept the event for its own button (called preventDefault).
 */
async function offerInstall(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const offer = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
      prompt(): Promise<void>;
      userChoice: Promise<{ outcome: string; platform: string }>;
    };
    const w = window as unknown as { prompts: number; choose: (outcome: string) => void };
    w.prompts ??= 0;
    offer.prompt = async () => {
      w.prompts += 1;
    };
    offer.userChoice = new Promise((resolve) => {
      w.choose = (outcome) => resolve({ outcome, platform: 'web' });
    });
    dispatchEvent(offer);
    return offer.defaultPrevented;
  });
}

test('the install button appears when the browser offers the prompt, shows it, and goes once the visitor has chosen', async ({
  page,
}) => {
  await page.goto('/en/settings/about');
  await waitForShell(page);
  await waitForIslands(page);
  const section = page.locator('.install-app');
  const button = section.getByRole('button', { name: msg('en', 'install.button') });
  await expect(button).toHaveCount(0);

  // Kept for the settings' button instead of the browser's own bar.
  expect(await offerInstall(page)).toBe(true);
  await expect(section).toHaveAttribute('data-install-state', 'available');
  await expect(section).toContainText(msg('en', 'install.state.available'));
  await button.click();
  await expect.poll(() => page.evaluate(() => (window as unknown as { prompts: number }).prompts)).toBe(1);
  // The dialog is open: the button waits, disabled, for the visitor's choice.
  await expect(button).toBeDisabled();
  await page.evaluate(() => (window as unknown as { choose: (outcome: string) => void }).choose('dismissed'));
  await expect(button).toHaveCount(0);
  await expect(section).toHaveAttribute('data-install-state', 'manual');

  // Offered again later and accepted: installed, no button.
  await offerInstall(page);
  await expect(button).toBeVisible();
  await button.click();
  await page.evaluate(() => (window as unknown as { choose: (outcome: string) => void }).choose('accepted'));
  await expect(section).toHaveAttribute('data-install-state', 'installed');
  await expect(section).toContainText(msg('en', 'install.state.installed'));
  await expect(button).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { prompts: number }).prompts)).toBe(2);
});

test('offline: visited pages reload from the cache; the video needs a connection; a new page shows the offline page', async ({
  page,
  context,
}) => {
  await signUpByApi(page, 'Offline uploader');
  const { videoId, title } = await publishVideoByApi(page, { title: 'Offline video', seconds: 4 });
  const pages = ['/', `/video/kv${videoId}`, '/settings/preference'];

  await page.goto('/');
  await waitForShell(page);
  await controlled(page);
  for (const path of pages) {
    await page.goto(path);
    await waitForIslands(page);
    await kept(page, path);
  }

  await context.setOffline(true);
  for (const path of pages) {
    await page.goto(path);
    await page.reload();
    await waitForShell(page);
    expect(new URL(page.url()).pathname).toBe(path);
  }
  // The last one reloaded: settings, its island working from cached scripts.
  await expect(page.getByRole('switch', { name: msg('zhs', 'preference.dataSaver.title') })).toBeVisible();
  await page.goto('/');
  await expect(page.locator(`.video-card[data-video-id="${videoId}"]`)).toBeVisible();
  await page.goto(`/video/kv${videoId}`);
  await waitForIslands(page);
  await expect(page.locator('[data-player-offline]')).toHaveText(msg('zhs', 'player.needsConnection'));
  await expect(page.locator('.video-title')).toHaveText(title);

  // Never visited: the offline page, listing what can be opened.
  await page.goto('/collections');
  await expect(page.locator('[data-offline-page] h1')).toHaveText(msg('zhs', 'offline.title'));
  await expect(page.locator('[data-offline-kept] a', { hasText: title })).toBeVisible();
  await page.locator('[data-offline-kept] a', { hasText: title }).click();
  await expect(page.locator('[data-player-offline]')).toBeVisible();

  await context.setOffline(false);
  await page.goto('/collections');
  await expect(page.locator('[data-offline-page]')).toHaveCount(0);
});

test('a new build prompts a reload', async ({ page }) => {
  await page.goto('/en/settings/about');
  await waitForShell(page);
  const buildId = (await page.locator('[data-about="build-id"]').textContent())!.trim();
  await page.route('**/_app/builds/latest.json', (route) =>
    route.fulfill({ json: { id: `${buildId}-newer`, timestamp: Date.now() } }),
  );
  // The check runs hourly, and at once when the tab comes back into view.
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  const toast = page.locator('.toast', { hasText: msg('en', 'toast.newVersion') });
  await expect(toast).toBeVisible();
  const reloaded = page.waitForEvent('load');
  await toast.getByRole('button', { name: msg('en', 'toast.reload') }).click();
  await reloaded;
  await expect(toast).toHaveCount(0);
});
