/**
 * Subtitles in the player (issue 29, playback): a video with a Japanese WebVTT track and an ASS
 * track (both added through the API), watched in English (no English track: off by default)
 * and in Japanese (its track on by default). The menu chooses a track; its first line is drawn
 * at its time (the cue's text for WebVTT; for ASS, libass's pixels over the picture compared with
 * the same area with subtitles off); `c` toggles; the lines stay above the control bar and in
 * fullscreen; with "keep subtitles clear" no danmaku covers the line shown. Nothing of the
 * renderers is fetched before the subtitle menu is opened; opening it starts libass only on a
 * part with an ASS track (and choosing another kind ends it); no page logs an error.
 */
import sharp from 'sharp';
import { expect, test, type Browser, type BrowserContext, type Page, type Worker } from '@playwright/test';
import {
  E2E_BASE_URL,
  msg,
  publishVideoByApi,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
  type PublishedVideo,
} from './helpers.ts';

const SHOTS = process.env.SHOTS;
const FIRST_LINE = 'こんにちは、世界';
const VTT = `WEBVTT

00:00:01.000 --> 00:00:06.000
${FIRST_LINE}

00:00:07.000 --> 00:00:09.000
二行目の字幕
`;
// A sign in the middle of the 640×360 picture (clear of the control bar), big, yellow, outlined,
// and a bottom-aligned line, which the control bar must not cover.
const ASS = `[Script Info]
ScriptType: v4.00+
PlayResX: 640
PlayResY: 360

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Sign,Arial,44,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,3,0,5,10,10,10,1
Style: Default,Arial,26,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,0,2,10,10,12,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:06.00,Sign,,0,0,0,,{\\pos(320,180)}字幕テスト ASS
Dialogue: 0,0:00:01.00,0:00:06.00,Default,,0,0,0,,下の行 bottom line
`;

let video: PublishedVideo;
let member: Awaited<ReturnType<BrowserContext['cookies']>>;
let vttId = 0;
let assId = 0;

const videoEl = (page: Page) => page.locator('video[data-video]');
const cue = (page: Page) => page.locator('[data-subtitle-layer] .subtitle-cue');

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signUpByApi(page, 'Subtitler');
  video = await publishVideoByApi(page, { title: 'Lanterns with subtitles', seconds: 12 });
  const add = async (body: Record<string, unknown>) => {
    const answer = await page.request.post('/api/video/subtitle/create', {
      data: { videoId: video.videoId, part: 1, ...body },
    });
    expect(answer.status(), await answer.text()).toBe(200);
    return ((await answer.json()) as { subtitle: { id: number } }).subtitle.id;
  };
  vttId = await add({ language: 'ja', label: '日本語', format: 'vtt', text: VTT });
  assId = await add({ language: 'ja', label: '日本語（特効）', format: 'ass', text: ASS });
  // Bottom danmaku at the first line's time, enough to fill the lanes where it is drawn.
  const xml = `<?xml version="1.0" encoding="UTF-8"?><i>${Array.from({ length: 12 }, (_, n) => `<d p="${(1.2 + n * 0.05).toFixed(2)},4,25,16777215,1700000000,0,0,${n + 1}">底${n}</d>`).join('')}</i>`;
  const imported = await page.request.post('/api/video/danmaku/import', { data: { videoId: video.videoId, xml } });
  expect(imported.status(), await imported.text()).toBe(200);
  member = await context.cookies();
  await context.close();
});

/** Collects page errors and console errors; the test fails on any. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console.error: ${message.text()}`));
  return errors;
}

/** Opens the video (as its uploader), its stream attached, paused at `at` with that frame decoded. */
async function openAt(page: Page, path: string, at: number) {
  await page.context().addCookies(member);
  await page.goto(path);
  await waitForIslands(page);
  await showPlayIntent(page, 'hls.js');
  await videoEl(page).evaluate(async (v: HTMLVideoElement) => {
    await v.play().catch(() => {});
    v.pause();
  });
  await seekTo(page, at);
}

async function seekTo(page: Page, at: number) {
  await videoEl(page).evaluate((v: HTMLVideoElement, at) => {
    v.pause();
    v.currentTime = at;
  }, at);
  await expect
    .poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => !v.seeking && v.readyState >= 2 && v.paused))
    .toBe(true);
}

/** The middle band of the picture as raw RGB (where the ASS sign is drawn). */
async function signArea(page: Page): Promise<Buffer> {
  const box = (await page.locator('.player-stage').boundingBox())!;
  const png = await page.screenshot({
    clip: {
      x: box.x + box.width * 0.2,
      y: box.y + box.height * 0.38,
      width: box.width * 0.6,
      height: box.height * 0.24,
    },
  });
  return sharp(png).removeAlpha().raw().toBuffer();
}

function changedShare(a: Buffer, b: Buffer): number {
  let changed = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i += 3) {
    if (Math.abs(a[i]! - b[i]!) + Math.abs(a[i + 1]! - b[i + 1]!) + Math.abs(a[i + 2]! - b[i + 2]!) > 60) changed++;
  }
  return changed / (a.length / 3);
}

test('the menu chooses a track, its first line is drawn at its time above the controls, c toggles it, and ASS is drawn by libass', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  const renderers: string[] = [];
  page.on(
    'request',
    (request) =>
      /jassub|\.wasm|cue-renderer|ass-renderer|noto-sans/i.test(request.url()) && renderers.push(request.url()),
  );
  await page.setViewportSize({ width: 1280, height: 900 });
  await openAt(page, `/en/video/kv${video.videoId}`, 2);

  // No English track: off by default, and nothing of a renderer fetched.
  const button = page.locator('[data-subtitle-button]');
  await expect(button).toHaveAccessibleName(msg('en', 'player.subtitles.buttonOff'));
  await expect(cue(page)).toHaveCount(0);
  expect(renderers).toEqual([]);

  // Opening the menu on a part with an ASS track starts libass on it, unseen (decision 0036, addendum
  // on the menu): its worker comes up; choosing the WebVTT track ends that worker.
  const workers: Worker[] = [];
  page.on('worker', (worker) => workers.push(worker));
  const closed = new Set<Worker>();
  const libassUp = () => page.evaluate(() => performance.getEntriesByName('subtitles:worker-ready').length > 0);
  await button.click();
  const menu = page.getByRole('menu', { name: msg('en', 'player.subtitles.menu') });
  await expect.poll(libassUp, { timeout: 45_000 }).toBe(true);
  expect(renderers.some((url) => /\.wasm/.test(url))).toBe(true);
  const names = await Promise.all(workers.map((worker) => worker.evaluate(() => self.name).catch(() => '')));
  const started = workers.filter((_, i) => names[i] === 'jassub-worker');
  expect(started).toHaveLength(1);
  for (const worker of started) worker.on('close', () => closed.add(worker));
  await expect(page.locator('[data-subtitle-canvas]')).toHaveCount(0);
  await expect(menu.getByRole('menuitemradio')).toHaveText([
    msg('en', 'player.subtitles.off'),
    '日本語 · Japanese',
    '日本語（特効） · Japanese',
  ]);
  await expect(menu.getByRole('menuitemradio', { name: msg('en', 'player.subtitles.off') })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await menu.locator(`[data-subtitle-track="${vttId}"]`).click();
  await expect(menu).toHaveCount(0);
  await expect(cue(page)).toHaveText(FIRST_LINE);
  await expect(button).toHaveAccessibleName(/日本語/);
  await expect.poll(() => started.every((worker) => closed.has(worker))).toBe(true);
  await expect(page.locator('[data-subtitle-canvas]')).toHaveCount(0);

  // Above the control bar while it shows.
  const cueBox = (await cue(page).locator('span').boundingBox())!;
  const controlsBox = (await page.locator('.player-controls').boundingBox())!;
  expect(cueBox.y + cueBox.height).toBeLessThanOrEqual(controlsBox.y + 1);
  if (SHOTS) await page.locator('.player-main').screenshot({ path: `${SHOTS}/subtitles-vtt-1280.png` });

  // Not yet at its time, then past it.
  await seekTo(page, 0.5);
  await expect(cue(page)).toHaveCount(0);
  await seekTo(page, 2);
  await expect(cue(page)).toHaveText(FIRST_LINE);

  // c: off, then the same track back.
  await page.locator('body').press('c');
  await expect(cue(page)).toHaveCount(0);
  await expect(button).toHaveAccessibleName(msg('en', 'player.subtitles.buttonOff'));
  await page.locator('body').press('c');
  await expect(cue(page)).toHaveText(FIRST_LINE);

  // The ASS track: libass draws the sign in the middle of the picture.
  await page.locator('body').press('c');
  await expect(cue(page)).toHaveCount(0);
  const without = await signArea(page);
  await button.click();
  await menu.locator(`[data-subtitle-track="${assId}"]`).click();
  // libass's 2 MB of WebAssembly compiles in its worker: slow on a busy machine.
  await expect(page.locator('[data-subtitle-canvas][data-ready]')).toHaveCount(1, { timeout: 45_000 });
  await expect.poll(async () => changedShare(without, await signArea(page)), { timeout: 15_000 }).toBeGreaterThan(0.02);
  // The canvas (its bottom-aligned line) shrunk above the control bar while it shows, as cues rise.
  const canvasOverBar = async () => {
    const canvas = (await page.locator('[data-subtitle-canvas]').boundingBox())!;
    const bar = (await page.locator('.player-controls').boundingBox())!;
    return canvas.y + canvas.height - bar.y;
  };
  await page.locator('.player-stage').hover();
  await expect.poll(canvasOverBar).toBeLessThanOrEqual(1);
  // The same in fullscreen.
  await page.locator('[data-fullscreen-button]').click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.className ?? null)).toContain('player-main');
  await page.locator('.player-stage').hover({ position: { x: 40, y: 40 } });
  await expect.poll(canvasOverBar).toBeLessThanOrEqual(1);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/subtitles-ass-fullscreen-1280.png` });
  await page.evaluate(() => document.exitFullscreen());
  await expect.poll(() => page.evaluate(() => document.fullscreenElement)).toBeNull();
  expect(renderers.some((url) => /\.wasm/.test(url))).toBe(true);
  expect(renderers.every((url) => url.startsWith(E2E_BASE_URL))).toBe(true);
  if (SHOTS) {
    await page.locator('.player-main').screenshot({ path: `${SHOTS}/subtitles-ass-1280.png` });
    await page.screenshot({ path: `${SHOTS}/subtitles-ass-page-1280.png` });
    // The same page on a phone, the ASS track still drawn (libass redraws at the new size).
    await page.setViewportSize({ width: 375, height: 812 });
    await page.waitForTimeout(1_500);
    await page.screenshot({ path: `${SHOTS}/subtitles-ass-page-375.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForTimeout(1_000);
  }

  // Off again: the sign is gone.
  await page.locator('body').press('c');
  await expect(page.locator('[data-subtitle-canvas]')).toHaveCount(0);
  await seekTo(page, 2);
  await expect.poll(async () => changedShare(without, await signArea(page))).toBeLessThan(0.01);
  expect(errors).toEqual([]);
});

test('in Japanese the Japanese track is on by default, on a phone and in fullscreen, and danmaku keep clear of its line', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  await page.setViewportSize({ width: 375, height: 812 });
  await page.addInitScript(() => {
    if (localStorage.getItem('subtitle-test-ready')) return;
    localStorage.setItem('subtitle-test-ready', '1');
    localStorage.setItem('player-settings', JSON.stringify({ danmaku: { keepSubtitlesClear: true } }));
  });
  await openAt(page, `/ja/video/kv${video.videoId}`, 2);
  await expect(cue(page)).toHaveText(FIRST_LINE);
  await expect(page.locator('[data-subtitle-button]')).toHaveAccessibleName(/日本語/);
  const cueBox = (await cue(page).locator('span').boundingBox())!;
  const stageBox = (await page.locator('.player-stage').boundingBox())!;
  expect(cueBox.x).toBeGreaterThanOrEqual(stageBox.x);
  expect(cueBox.x + cueBox.width).toBeLessThanOrEqual(stageBox.x + stageBox.width);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/subtitles-vtt-375.png` });

  // Danmaku on stage, none over the line shown.
  type Item = { x: number; y: number; width: number; height: number };
  const stage = () =>
    page
      .locator('[data-danmaku-stage]')
      .evaluate((c) => (c as unknown as { danmakuSnapshot: { items: Item[] } }).danmakuSnapshot.items);
  await expect.poll(async () => (await stage()).length).toBeGreaterThan(3);
  const line = {
    top: cueBox.y - stageBox.y,
    bottom: cueBox.y + cueBox.height - stageBox.y,
    left: cueBox.x - stageBox.x,
    right: cueBox.x + cueBox.width - stageBox.x,
  };
  const over = (items: Item[]) =>
    items.filter(
      (d) => d.y < line.bottom && d.y + d.height > line.top && d.x < line.right && d.x + d.width > line.left,
    );
  expect(over(await stage())).toEqual([]);

  // Fullscreen: the line is still drawn, inside the fullscreen element.
  await page.locator('[data-fullscreen-button]').click();
  await expect.poll(() => page.evaluate(() => document.fullscreenElement?.className ?? null)).toContain('player-main');
  await expect(cue(page)).toHaveText(FIRST_LINE);
  expect(await page.evaluate(() => !!document.fullscreenElement?.querySelector('.subtitle-cue'))).toBe(true);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/subtitles-fullscreen-375.png` });
  await page.evaluate(() => document.exitFullscreen());

  // The choice is remembered per interface language: off in Japanese stays off on the next visit.
  await page.locator('body').press('c');
  await expect(cue(page)).toHaveCount(0);
  await openAt(page, `/ja/video/kv${video.videoId}`, 2);
  await expect(page.locator('[data-subtitle-button]')).toHaveAccessibleName(msg('ja', 'player.subtitles.buttonOff'));
  await expect(cue(page)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('opening the subtitle menu on a part with only SRT and WebVTT tracks loads nothing of libass', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const errors = watchErrors(page);
  // Its own video: a part whose tracks are SRT and WebVTT only.
  const setup = await page.context().browser()!.newContext({ baseURL: E2E_BASE_URL });
  await setup.addCookies(member);
  const setupPage = await setup.newPage();
  const plain = await publishVideoByApi(setupPage, { title: 'Lanterns with plain subtitles', seconds: 6 });
  for (const [format, text] of [
    ['vtt', VTT],
    ['srt', '1\n00:00:01,000 --> 00:00:06,000\nこんにちは\n'],
  ] as const) {
    const answer = await setupPage.request.post('/api/video/subtitle/create', {
      data: { videoId: plain.videoId, part: 1, language: 'ja', label: format, format, text },
    });
    expect(answer.status(), await answer.text()).toBe(200);
  }
  await setup.close();

  const renderers: string[] = [];
  page.on('request', (request) => /jassub|\.wasm|ass-renderer/i.test(request.url()) && renderers.push(request.url()));
  await openAt(page, `/en/video/kv${plain.videoId}`, 2);
  await page.locator('[data-subtitle-button]').click();
  const menu = page.getByRole('menu', { name: msg('en', 'player.subtitles.menu') });
  await expect(menu.getByRole('menuitemradio')).toHaveCount(3);
  // Pointing at each track too: neither is ASS.
  for (const item of await menu.locator('[data-subtitle-track]').all()) await item.hover();
  await page.waitForTimeout(1_000);
  expect(renderers).toEqual([]);
  expect(await page.evaluate(() => performance.getEntriesByName('subtitles:worker-start').length)).toBe(0);
  expect(errors).toEqual([]);
});
