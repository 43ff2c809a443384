/** The live /dev pages (SPEC §2): scroll and wheel gestures phase by phase, the pointer type, the theme colours with their contrast. */
import { expect, test } from '@playwright/test';
import { msg, waitForShell } from './helpers.ts';

const fill = (template: string, values: Record<string, string>) => template.replace(/\{\{(\w+)\}\}/g, (_, k: string) => values[k]);

test('test-scroll reports scroll and wheel gestures from start to end', async ({ page }) => {
  await page.goto('/en/dev/test-scroll');
  await waitForShell(page);
  const box = page.locator('[data-scroll-box]');
  await box.evaluate((el) => el.scrollTo(0, 120));
  const scroll = page.locator('[data-scroll-readout]');
  await expect(scroll).toHaveAttribute('data-phase', 'end');
  await expect(scroll).toHaveText(fill(msg('en', 'dev.scroll.readout'), { phase: msg('en', 'dev.phases.end'), y: '120' }));
  await box.hover();
  await page.keyboard.down('Control');
  await page.mouse.wheel(0, -100);
  await page.keyboard.up('Control');
  const wheel = page.locator('[data-wheel-readout]');
  await expect(wheel).toHaveAttribute('data-phase', 'end');
  await expect(wheel).toHaveText(fill(msg('en', 'dev.scroll.wheel'), { phase: msg('en', 'dev.phases.end'), zoom: (2 ** 0.7).toFixed(2) }));
});

test('pointer-type names the pointer used; test-color lists the theme colours with readable text', async ({ page }) => {
  await page.goto('/en/dev/pointer-type');
  await waitForShell(page);
  await page.locator('[data-pointer-area]').click();
  await expect(page.locator('[data-pointer-last]')).toHaveText(fill(msg('en', 'dev.pointer.last'), { type: msg('en', 'dev.pointer.types.mouse') }));
  await expect(page.locator('[data-pointer-fine]')).toHaveText(fill(msg('en', 'dev.pointer.fine'), { value: msg('en', 'dev.yes') }));

  await page.goto('/en/dev/test-color');
  await waitForShell(page);
  const text = page.locator('[data-colour="--text"] [data-colour-value]');
  await expect(text).toHaveText(/^#[0-9a-f]{6} · contrast \d+\.\d\d:1$/);
  const ratio = Number(/contrast ([\d.]+):1/.exec((await text.textContent())!)![1]);
  expect(ratio).toBeGreaterThanOrEqual(4.5);
});
