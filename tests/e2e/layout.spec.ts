/**
 * The responsive shell at the three breakpoints (SPEC §2/§9), their boundaries, and the
 * immersive layout of /welcome.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, type Locator, type Page } from '@playwright/test';
import { msg, waitForShell } from './helpers.ts';

/** Not drawn (a 1 px clipped box) yet read by screen readers: an icon link's name. */
async function expectVisuallyHidden(label: Locator): Promise<void> {
  const box = await label.boundingBox();
  expect(box === null || (box.width <= 1 && box.height <= 1)).toBe(true);
}

type Breakpoint = 'mobile' | 'tablet' | 'computer';

const breakpointOf = (page: Page) => page.evaluate(() => document.documentElement.dataset.breakpoint);

test.describe('breakpoints on /en/', () => {
  const cases: Array<{ name: Breakpoint; width: number }> = [
    { name: 'mobile', width: 375 },
    { name: 'tablet', width: 800 },
    { name: 'computer', width: 1280 },
  ];

  for (const { name, width } of cases) {
    test(`${name} at ${width}px`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/en/');
      await waitForShell(page);
      await expect(page.locator('html')).toHaveAttribute('data-breakpoint', name);
      expect(await breakpointOf(page)).toBe(name);

      const bottomNav = page.locator('.bottom-nav');
      const sideBar = page.locator('#side-bar');
      const sideLabels = page.locator('#side-bar .side-item span');
      await expect(sideLabels).toHaveCount(9); // eight entries and settings

      if (name === 'mobile') {
        await expect(bottomNav).toBeVisible();
        await expect(bottomNav.locator('a.bottom-item')).toHaveCount(5);
        await expect(bottomNav.locator('a.bottom-item').first()).toContainText(msg('en', 'nav.home'));
        await expect(sideBar).toBeHidden();
        // The bottom nav sits at the bottom edge of the window.
        const box = await bottomNav.boundingBox();
        expect(box).not.toBeNull();
        expect(Math.round(box!.y + box!.height)).toBe(800);
        expect(Math.round(box!.width)).toBe(width);
      } else {
        await expect(bottomNav).toBeHidden();
        await expect(sideBar).toBeVisible();
      }

      if (name === 'tablet') {
        // Icons only, the words kept as the links' accessible names.
        for (const label of await sideLabels.all()) await expectVisuallyHidden(label);
        await expect(sideBar.getByRole('link', { name: msg('en', 'nav.home'), exact: true })).toBeVisible();
        // The narrow side bar.
        expect(Math.round((await sideBar.boundingBox())!.width)).toBe(68);
      }
      if (name === 'computer') {
        await expect(sideLabels.first()).toBeVisible();
        await expect(sideLabels.first()).toHaveText(msg('en', 'nav.home'));
        expect(Math.round((await sideBar.boundingBox())!.width)).toBe(208);
      }

      const dir = join(testInfo.project.outputDir, 'screens');
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `home-${name}.png`), fullPage: true, animations: 'disabled' });
    });
  }

  for (const { name, width } of cases) {
    test(`${name} at ${width}px: the shell fits the window (no sideways scrolling, nothing cut off)`, async ({
      page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/en/');
      await waitForShell(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, 'page is wider than the window').toBeLessThanOrEqual(0);
      // Every control of the app bar is inside the window.
      for (const control of await page.locator('.app-bar :is(a, button, summary, input)').all()) {
        if (!(await control.isVisible())) continue;
        const box = (await control.boundingBox())!;
        expect(
          box.x + box.width,
          `${await control.evaluate((el) => el.outerHTML.slice(0, 80))} ends past the right edge`,
        ).toBeLessThanOrEqual(width + 0.5);
      }
    });
  }

  const boundaries: Array<{ width: number; name: Breakpoint }> = [
    { width: 639, name: 'mobile' },
    { width: 640, name: 'tablet' },
    { width: 991, name: 'tablet' },
    { width: 992, name: 'computer' },
  ];
  for (const { width, name } of boundaries) {
    test(`boundary: ${width}px is ${name}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/en/');
      await waitForShell(page);
      await expect(page.locator('html')).toHaveAttribute('data-breakpoint', name);
      // The CSS agrees with the script's breakpoint.
      if (name === 'mobile') {
        await expect(page.locator('.bottom-nav')).toBeVisible();
        await expect(page.locator('#side-bar')).toBeHidden();
      } else {
        await expect(page.locator('.bottom-nav')).toBeHidden();
        await expect(page.locator('#side-bar')).toBeVisible();
        const label = page.locator('#side-bar .side-item span').first();
        if (name === 'tablet') await expectVisuallyHidden(label);
        else await expect(label).toBeVisible();
      }
    });
  }

  test('resizing the window updates the breakpoint without a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/en/');
    await waitForShell(page);
    await expect(page.locator('html')).toHaveAttribute('data-breakpoint', 'computer');
    await page.setViewportSize({ width: 800, height: 800 });
    await expect(page.locator('html')).toHaveAttribute('data-breakpoint', 'tablet');
    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.locator('html')).toHaveAttribute('data-breakpoint', 'mobile');
    await expect(page.locator('.bottom-nav')).toBeVisible();
    await page.setViewportSize({ width: 992, height: 800 });
    await expect(page.locator('html')).toHaveAttribute('data-breakpoint', 'computer');
  });
});

test.describe('layouts', () => {
  test('/welcome uses the immersive layout without the side bar', async ({ page }) => {
    await page.goto('/welcome');
    await expect(page.locator('html')).toHaveAttribute('data-layout', 'immersive');
    await expect(page.locator('#side-bar')).toBeHidden();
    await expect(page.locator('.welcome-hero h1')).toHaveText(msg('zhs', 'welcome.headline'));
    await page.goto('/en/welcome');
    await expect(page.locator('html')).toHaveAttribute('data-layout', 'immersive');
  });

  for (const path of ['/', '/en/', '/search', '/ja/category', '/settings/appearance', '/error', '/nope']) {
    test(`${path} uses the responsive layout`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('data-layout', 'responsive');
    });
  }
});
