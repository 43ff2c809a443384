/**
 * The theme as a person meets it: the first frame is already in the chosen scheme and accent
 * (screenshots taken with every module script blocked, so nothing has hydrated), and the
 * Appearance page's choices reach another device through the server copy on its next load.
 */
import sharp from 'sharp';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { derivePalette, PALETTES, SCHEME_BACKGROUNDS } from '../../src/lib/theme/theme-core.js';
import {
  E2E_BASE_URL,
  LOCALE_CODES,
  homePath,
  localized,
  logInByApi,
  signUpByApi,
  waitForIslands,
  waitForShell,
} from './helpers.ts';

const host = new URL(E2E_BASE_URL).hostname;
const themeCookies = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => ({
    name,
    value,
    domain: host,
    path: '/',
    sameSite: 'Strict' as const,
  }));

/** A context whose pages run no module script: what the browser paints before hydration. */
async function firstPaintContext(
  browser: Browser,
  scheme: 'light' | 'dark',
  cookies: Record<string, string>,
): Promise<BrowserContext> {
  const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1280, height: 800 } });
  await context.route('**/_astro/**/*.js', (route) => route.abort());
  await context.addCookies(themeCookies(cookies));
  return context;
}

/**
 * The share of pixels that differ between two screenshots of the same size. Two loads of one page
 * may differ in a few pixels (an image or a font face that arrived between them); a page in the
 * other scheme differs in most of them (the whole background).
 */
async function differingShare(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all([a, b].map((png) => sharp(png).removeAlpha().raw().toBuffer()));
  if (left.length !== right.length) return 1;
  let differing = 0;
  for (let i = 0; i < left.length; i += 3)
    if (left[i] !== right[i] || left[i + 1] !== right[i + 1] || left[i + 2] !== right[i + 2]) differing++;
  return differing / (left.length / 3);
}
/** The colour of one pixel, as 'rrggbb'. */
async function pixelAt(png: Buffer, x: number, y: number): Promise<string> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * info.channels;
  return [data[at], data[at + 1], data[at + 2]].map((c) => c!.toString(16).padStart(2, '0')).join('');
}

async function firstFrame(browser: Browser, path: string, scheme: 'light' | 'dark', cookies: Record<string, string>) {
  const context = await firstPaintContext(browser, scheme, cookies);
  const page = await context.newPage();
  await page.goto(path, { waitUntil: 'domcontentloaded' });
  const shot = await page.screenshot();
  const theme = await page.locator('html').getAttribute('data-theme');
  await context.close();
  return { shot, theme };
}

test('every locale paints its first frame in the chosen scheme and accent', async ({ browser }) => {
  test.setTimeout(300_000); // 38 fresh browser contexts and 56 full-page screenshots: minutes on a busy machine
  const bluePink = { 'theme-color': 'blue' };
  for (const locale of LOCALE_CODES) {
    const path = localized('/settings/appearance', locale);
    const light = await firstFrame(browser, path, 'dark', { ...bluePink, 'theme-type': 'light' });
    const dark = await firstFrame(browser, path, 'light', { ...bluePink, 'theme-type': 'dark' });
    expect([light.theme, dark.theme], locale).toEqual(['light', 'dark']);
    // The page background (a corner of the settings page) is the scheme's, before any script module ran.
    expect(await pixelAt(light.shot, 4, 790), locale).toBe(SCHEME_BACKGROUNDS.light[0]);
    expect(await pixelAt(dark.shot, 4, 790), locale).toBe(SCHEME_BACKGROUNDS.dark[0]);
    if (!['zhs', 'en', 'ja'].includes(locale)) continue;
    const systemDark = await firstFrame(browser, path, 'dark', bluePink);
    const systemLight = await firstFrame(browser, path, 'light', bluePink);
    expect([systemDark.theme, systemLight.theme], locale).toEqual(['dark', 'light']);
    // "System" under an emulated preference is the same frame as choosing that scheme.
    expect(await differingShare(systemDark.shot, dark.shot), `${locale}: system under dark = dark`).toBeLessThan(0.01);
    expect(await differingShare(systemLight.shot, light.shot), `${locale}: system under light = light`).toBeLessThan(
      0.01,
    );
  }
});

test("the accent of the first frame is the palette's derived colour (custom colour and wallpaper too)", async ({
  browser,
}) => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ 'theme-color': 'green', 'theme-type': 'light' }, derivePalette(PALETTES.green, 'light').accentText],
    [
      { 'theme-color': 'custom', 'theme-color-custom': '3355cc', 'theme-type': 'dark' },
      derivePalette('3355cc', 'dark').accentText,
    ],
  ];
  for (const [cookies, expected] of cases) {
    const context = await firstPaintContext(browser, 'light', cookies);
    const page = await context.newPage();
    await page.goto('/settings/appearance', { waitUntil: 'domcontentloaded' });
    // The active settings link is accent-coloured text.
    const colour = await page.locator('.settings-nav a.active').evaluate((el) => getComputedStyle(el).color);
    const hex = colour
      .match(/\d+/g)!
      .slice(0, 3)
      .map((c) => Number(c).toString(16).padStart(2, '0'))
      .join('');
    expect(hex).toBe(expected);
    await context.close();
  }
  // The wallpaper palette takes the wallpaper manager's colour from local storage.
  const context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('wallpaper-accent', '#20a070'));
  const page = await context.newPage();
  await page.goto('/welcome');
  expect(
    await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--accent-base').trim()),
  ).toBe('#20a070');
  await context.close();
});

async function appearance(page: Page): Promise<void> {
  await page.goto('/en/settings/appearance');
  await waitForIslands(page);
  await waitForShell(page);
}
const themeOf = (page: Page) =>
  page.locator('html').evaluate((el) => ({ theme: el.dataset.theme, color: el.dataset.themeColor }));

test('choices on one device reach another on its next load through the server copy', async ({ browser }) => {
  test.setTimeout(120_000);
  const a = await (await browser.newContext({ colorScheme: 'light' })).newPage();
  const b = await (await browser.newContext({ colorScheme: 'light' })).newPage();
  const member = await signUpByApi(a, 'Two Devices');
  await logInByApi(a, member.email, member.password);
  await logInByApi(b, member.email, member.password);

  await appearance(a);
  await a.locator('[data-theme-type-option="dark"]').click();
  await a.locator('[data-palette-option="cyan"]').click();
  await expect.poll(() => themeOf(a)).toEqual({ theme: 'dark', color: 'cyan' });
  await expect
    .poll(async () => (await (await a.request.post(`${E2E_BASE_URL}/api/user/settings`)).json()).userSettings)
    .toMatchObject({ themeType: 'dark', themeColor: 'cyan' });

  // Device B: its first load after the change syncs, and the next one paints it from the first frame.
  await b.goto(homePath('en'));
  await waitForShell(b);
  await expect.poll(() => themeOf(b)).toEqual({ theme: 'dark', color: 'cyan' });
  const cookies = await b.context().cookies();
  expect(cookies.find((c) => c.name === 'theme-type')).toMatchObject({ value: 'dark', sameSite: 'Strict' });
  // Written to expire in 9999 (SPEC §9); Chromium keeps a cookie at most 400 days.
  expect(cookies.find((c) => c.name === 'theme-type')!.expires).toBeGreaterThan(Date.now() / 1000 + 399 * 86_400);
  await b.context().route('**/_astro/**/*.js', (route) => route.abort());
  await b.reload({ waitUntil: 'domcontentloaded' });
  // With the scripts refused, the shell's chunk recovery may reload the page once more (its guard
  // allows one): the page is read again after that, still without scripts and still in dark cyan.
  await expect.poll(() => themeOf(b).catch(() => null)).toEqual({ theme: 'dark', color: 'cyan' });
  await b.context().unroute('**/_astro/**/*.js');

  // B keeps its own settings: sync off, then red. The server copy (and so A) keeps cyan.
  await appearance(b);
  await b.locator('[data-sync-switch]').uncheck();
  await b.locator('[data-palette-option="red"]').click();
  await expect.poll(() => themeOf(b)).toEqual({ theme: 'dark', color: 'red' });
  await b.reload();
  await waitForShell(b);
  await expect.poll(() => themeOf(b)).toEqual({ theme: 'dark', color: 'red' });
  await a.reload();
  await waitForShell(a);
  await expect.poll(() => themeOf(a)).toEqual({ theme: 'dark', color: 'cyan' });
  expect((await (await a.request.post(`${E2E_BASE_URL}/api/user/settings`)).json()).userSettings.themeColor).toBe(
    'cyan',
  );
});
