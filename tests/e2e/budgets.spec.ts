/**
 * The speed and accessibility budgets of issue 12, measured from the build and the running
 * server (never by timing): JavaScript per page type (gzip, what loads on first visit; the video
 * page also counts hls.js, loaded when the player attaches), the home page's weight (bytes the
 * browser received with four published HD videos, on phones at 1.75× and 3×), and axe-core with no serious or critical
 * violation on the page types in zhs, en and ja at 1280 and 375 px, and on the /dev galleries and the
 * embed (pages outside the localized routes) at both widths.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { jsWeightOf } from '../../scripts/js-weight.ts';
import {
  E2E,
  E2E_BASE_URL,
  localized,
  publishVideoByApi,
  signUpByApi,
  waitForIslands,
  type LocaleCode,
} from './helpers.ts';

const KB = 1024;
// The embed player, before play (hls.js loads on play): what a blog with an embed pays (issue 28).
const JS_BUDGET_KB = { home: 20, list: 100, video: 260, embed: 60 } as const;
const HOME_WEIGHT_KB = 300;
/** The chunk of hls.js (its light build), the one on-demand chunk the video page's budget counts. */
const HLS_CHUNK = /\/hls\.light\.[\w-]+\.js$/;

interface Fixture {
  videoId: number;
  uploaderUid: number;
}
const FIXTURE_FILE = join(E2E, 'budgets-fixture.json');
let fixture: Fixture;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  if (existsSync(FIXTURE_FILE)) {
    fixture = JSON.parse(readFileSync(FIXTURE_FILE, 'utf8')) as Fixture;
    return;
  }
  // A first row of cards on the home page, as a visitor sees it.
  const uploader = await (await browser.newContext()).newPage();
  const { uid } = await signUpByApi(uploader, 'Budgeter');
  let videoId = 0;
  for (const title of ['Budget one', 'Budget two', 'Budget three', 'Budget four'])
    ({ videoId } = await publishVideoByApi(uploader, { title, seconds: 2, size: '1280x720' }));
  fixture = { videoId, uploaderUid: uid };
  writeFileSync(FIXTURE_FILE, JSON.stringify(fixture));
});

async function html(route: string): Promise<string> {
  const response = await fetch(new URL(route, E2E_BASE_URL), { headers: { 'Accept-Language': 'zh-CN' } });
  expect(response.status, route).toBe(200);
  return response.text();
}

test('JavaScript per page type stays within its gzip budget', async () => {
  const kinds: Array<[string, keyof typeof JS_BUDGET_KB, boolean]> = [
    ['/', 'home', false],
    ['/category', 'list', false],
    ['/search?keyword=Budget', 'list', false],
    ['/history', 'list', false],
    ['/feed/following', 'list', false],
    ['/collections', 'list', false],
    [`/video/kv${fixture.videoId}`, 'video', true],
    [`/embed/kv${fixture.videoId}`, 'embed', false],
  ];
  for (const [route, kind, withLazy] of kinds) {
    // The video page: what loads on arrival and hls.js, which loads as the viewer means to play;
    // chunks of rarer acts (dialogs, closed panels, a subtitle renderer) are not the cost of watching.
    const weight = jsWeightOf(await html(route), undefined, HLS_CHUNK);
    const total = weight.jsGzipBytes + (withLazy ? weight.lazyJsGzipBytes : 0);
    expect(total / KB, `${route} (${kind}): ${(total / KB).toFixed(1)} KB gzip`).toBeLessThanOrEqual(
      JS_BUDGET_KB[kind],
    );
  }
});

// Phones as Lighthouse emulates one (412 px at 1.75×) and as an iPhone is (375 px at 3×): the
// posters' srcset picks larger files there than at 1×, and that is what a phone downloads.
const PHONES = [
  { width: 412, height: 823, deviceScaleFactor: 1.75 },
  { width: 375, height: 812, deviceScaleFactor: 3 },
];
for (const phone of PHONES) {
  test(`the home page weighs at most 300 KB on a ${phone.width} px phone at ${phone.deviceScaleFactor}×, with its first row of posters`, async ({
    browser,
  }) => {
    const context = await browser.newContext({
      viewport: { width: phone.width, height: phone.height },
      deviceScaleFactor: phone.deviceScaleFactor,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await page.goto('/');
    await page.waitForLoadState('networkidle');
    const bytes = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      return nav.transferSize + resources.reduce((sum, r) => sum + r.transferSize, 0);
    });
    await expect(page.locator('.video-card img').first()).toHaveAttribute('fetchpriority', 'high');
    await context.close();
    expect(bytes / KB, `home: ${(bytes / KB).toFixed(1)} KB`).toBeLessThanOrEqual(HOME_WEIGHT_KB);
  });
}

const AXE_LOCALES: LocaleCode[] = ['zhs', 'en', 'ja'];
const axePageTypes = () => [
  '/',
  '/category',
  '/search?keyword=Budget',
  `/video/kv${fixture.videoId}`,
  `/user/${fixture.uploaderUid}`,
  '/settings/appearance',
  '/settings/language',
  '/welcome',
  '/upload',
  '/no-such-page',
  '/notifications',
];
// Pages outside the localized routes, so one language each: the /dev pages with forms, controls
// and galleries of the shared parts, and the embed player (served the same to every language).
const UNLOCALIZED_PAGES = () => [
  '/dev/components',
  '/dev/test-slider',
  '/dev/test-rich-text-editor',
  '/dev/test-lottie',
  '/dev/test-font',
  '/dev/test-mobile',
  `/embed/kv${fixture.videoId}`,
];

async function seriousViolations(page: Page): Promise<string[]> {
  // Only the violations are reported in full: collecting every passing node's details is most of
  // axe's time on a large page, and nothing here reads them.
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
}

async function expectNoSeriousViolation(page: Page, width: number, paths: string[]): Promise<void> {
  test.setTimeout(300_000);
  await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await waitForIslands(page);
    for (const violation of await seriousViolations(page)) found.push(`${path}: ${violation}`);
  }
  expect(found).toEqual([]);
}

// One test per width and language (11 pages), and one per width for the unlocalized pages, so a
// busy machine stays within the time limit and the two workers share the work.
for (const width of [1280, 375]) {
  for (const locale of AXE_LOCALES) {
    test(`axe finds no serious or critical violation at ${width} px in ${locale}`, ({ page }) =>
      expectNoSeriousViolation(
        page,
        width,
        axePageTypes().map((route) => localized(route, locale)),
      ));
  }
  test(`axe finds no serious or critical violation in the /dev galleries and the embed at ${width} px`, ({ page }) =>
    expectNoSeriousViolation(page, width, UNLOCALIZED_PAGES()));
}
