/**
 * Wallpapers (SPEC §3-§5) in real Chromium with its real IndexedDB: add, reorder by keyboard and
 * by drag, delete, the accent applied and surviving a reload, and a full quota refused with a
 * message and nothing written. The database is read back with the raw IndexedDB API, not the
 * product's own code.
 */
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { msg, waitForIslands } from './helpers.ts';

const RED = { r: 200, g: 40, b: 60 };
const BLUE = { r: 30, g: 90, b: 200 };
const GREEN = { r: 40, g: 160, b: 80 };

async function png(colour: { r: number; g: number; b: number }, width = 96, height = 60): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();
}

/** The backgroundImages store as [key, filename, displayIndex, color, blob type, blob size], by displayIndex. */
async function storedRows(page: Page) {
  return page.evaluate(
    () =>
      new Promise<
        Array<{ key: number; filename: string; displayIndex: number; color: string; type: string; size: number }>
      >((resolve, reject) => {
        const open = indexedDB.open('ImagesDB');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const store = db.transaction('backgroundImages').objectStore('backgroundImages');
          const keys = store.getAllKeys();
          const values = store.getAll();
          values.onsuccess = () => {
            const rows = (
              values.result as Array<{ filename: string; displayIndex: number; color: string; imageData: Blob }>
            ).map((v, i) => ({
              key: keys.result[i] as number,
              filename: v.filename,
              displayIndex: v.displayIndex,
              color: v.color,
              type: v.imageData.type,
              size: v.imageData.size,
            }));
            db.close();
            resolve(rows.sort((a, b) => a.displayIndex - b.displayIndex));
          };
        };
      }),
  );
}

const accent = (page: Page) =>
  page.evaluate(() => ({
    property: document.documentElement.style.getPropertyValue('--wallpaper-accent'),
    stored: localStorage.getItem('wallpaper-accent'),
    layer: !!document.getElementById('wallpaper-layer'),
  }));

/** Two hex colours are close (the palette's median cut averages a box). */
function near(hex: string, { r, g, b }: { r: number; g: number; b: number }): boolean {
  const [x, y, z] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  return Math.abs(x - r) + Math.abs(y - g) + Math.abs(z - b) < 24;
}

const tileNames = (page: Page) => page.locator('.wallpaper-tile .wallpaper-name').allTextContents();

test('add, reorder, delete wallpapers; the accent follows the choice and survives a reload', async ({ page }) => {
  await page.goto('/settings/appearance');
  await waitForIslands(page);
  const manager = page.locator('[data-wallpaper-manager="ready"]');
  await expect(manager).toBeVisible();
  await expect(page.locator('.wallpaper-tile')).toHaveCount(1); // the "none" row only
  await expect(page.getByRole('button', { name: msg('zhs', 'wallpaper.none') })).toHaveAttribute(
    'aria-pressed',
    'true',
  );

  await page.locator('[data-wallpaper-input]').setInputFiles([
    { name: 'red.png', mimeType: 'image/png', buffer: await png(RED) },
    { name: 'blue.png', mimeType: 'image/png', buffer: await png(BLUE) },
    { name: 'green.png', mimeType: 'image/png', buffer: await png(GREEN) },
  ]);
  await expect(page.locator('.wallpaper-tile')).toHaveCount(4);
  expect(await tileNames(page)).toEqual(['red.png', 'blue.png', 'green.png']);
  let rows = await storedRows(page);
  expect(rows.map((r) => [r.filename, r.displayIndex])).toEqual([
    ['red.png', 0],
    ['blue.png', 1],
    ['green.png', 2],
  ]);
  expect(near(rows[0].color, RED) && near(rows[1].color, BLUE) && near(rows[2].color, GREEN)).toBe(true);

  // The last one added is chosen: its colour is the wallpaper accent, and the wallpaper is shown.
  const green = rows[2];
  await expect(page.locator(`[data-wallpaper-key="${green.key}"] .wallpaper-choose`)).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  await expect.poll(() => accent(page)).toEqual({ property: green.color, stored: green.color, layer: true });
  // Text over a dark-enough colour is white; green (brightness 123) is below both thresholds.
  await expect(page.locator(`[data-wallpaper-key="${green.key}"] .wallpaper-name`)).toHaveCSS(
    'color',
    'rgb(255, 255, 255)',
  );

  // Keyboard: Alt+→ on red moves it after blue.
  await page.locator(`[data-wallpaper-key="${rows[0].key}"] .wallpaper-choose`).focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => tileNames(page)).toEqual(['blue.png', 'red.png', 'green.png']);
  await expect(page.locator(`[data-wallpaper-key="${rows[0].key}"] .wallpaper-choose`)).toBeFocused();
  // Clamped: Alt+← on the first stays first.
  await page.locator(`[data-wallpaper-key="${rows[1].key}"] .wallpaper-choose`).focus();
  await page.keyboard.press('Alt+ArrowLeft');
  expect((await storedRows(page)).map((r) => r.filename)).toEqual(['blue.png', 'red.png', 'green.png']);

  // Drag: green onto blue takes blue's place, the others shift later.
  await page
    .locator(`[data-wallpaper-key="${green.key}"]`)
    .dragTo(page.locator(`[data-wallpaper-key="${rows[1].key}"]`));
  await expect.poll(() => tileNames(page)).toEqual(['green.png', 'blue.png', 'red.png']);
  rows = await storedRows(page);
  expect(rows.map((r) => [r.filename, r.displayIndex])).toEqual([
    ['green.png', 0],
    ['blue.png', 1],
    ['red.png', 2],
  ]);

  // Deleting the chosen image: none is chosen, the accent is gone, the later ones move up.
  await page.getByRole('button', { name: msg('zhs', 'wallpaper.delete').replace('{{name}}', 'green.png') }).click();
  await expect(page.locator('.wallpaper-tile')).toHaveCount(3);
  await expect.poll(() => accent(page)).toEqual({ property: '', stored: null, layer: false });
  rows = await storedRows(page);
  expect(rows.map((r) => [r.filename, r.displayIndex])).toEqual([
    ['blue.png', 0],
    ['red.png', 1],
  ]);

  // Choose blue: applied now, and again after a reload (from the database, before any island).
  await page.locator(`[data-wallpaper-key="${rows[0].key}"] .wallpaper-choose`).click();
  await expect.poll(() => accent(page)).toEqual({ property: rows[0].color, stored: rows[0].color, layer: true });
  await page.reload();
  await expect.poll(() => accent(page)).toEqual({ property: rows[0].color, stored: rows[0].color, layer: true });
  await page.goto('/');
  await expect.poll(() => accent(page)).toEqual({ property: rows[0].color, stored: rows[0].color, layer: true });
});

const noisy = () =>
  sharp({
    create: {
      width: 4000,
      height: 2500,
      channels: 3,
      background: { r: 0, g: 0, b: 0 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .png()
    .toBuffer();

test('a large picture is downscaled before it is stored', async ({ page }) => {
  await page.goto('/settings/appearance');
  await expect(page.locator('[data-wallpaper-manager="ready"]')).toBeVisible();
  const big = await noisy();
  await page.locator('[data-wallpaper-input]').setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: big }]);
  await expect(page.locator('.wallpaper-tile')).toHaveCount(2);
  const [stored] = await storedRows(page);
  expect(stored.type).toBe('image/webp');
  expect(stored.size).toBeLessThan(big.length / 4);
  const size = await page.evaluate(
    () =>
      new Promise<number[]>((resolve, reject) => {
        const open = indexedDB.open('ImagesDB');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('backgroundImages').objectStore('backgroundImages').getAll();
          all.onsuccess = async () => {
            const bitmap = await createImageBitmap((all.result[0] as { imageData: Blob }).imageData);
            open.result.close();
            resolve([bitmap.width, bitmap.height]);
          };
        };
      }),
  );
  expect(size).toEqual([2560, 1600]);
});

test('a full quota is a clear message and nothing is written', async ({ page, context }) => {
  // Chromium's quota for the site, lowered before the site first stores anything.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Storage.overrideQuotaForOrigin', {
    origin: new URL(test.info().project.use.baseURL!).origin,
    quotaSize: 1_000_000,
  });
  await page.goto('/settings/appearance');
  await expect(page.locator('[data-wallpaper-manager="ready"]')).toBeVisible();
  await page
    .locator('[data-wallpaper-input]')
    .setInputFiles([{ name: 'red.png', mimeType: 'image/png', buffer: await png(RED) }]);
  await expect(page.locator('.wallpaper-tile')).toHaveCount(2);
  await page
    .locator('[data-wallpaper-input]')
    .setInputFiles([{ name: 'big.png', mimeType: 'image/png', buffer: await noisy() }]);
  await expect(page.locator('[data-wallpaper-error]')).toHaveText(msg('zhs', 'wallpaper.quota'));
  expect((await storedRows(page)).map((r) => r.filename)).toEqual(['red.png']);
  await expect(page.locator('.wallpaper-tile')).toHaveCount(2);
  await expect(page.locator('.wallpaper-choose[aria-pressed="true"] .wallpaper-name')).toHaveText('red.png');
});
