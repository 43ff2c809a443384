/**
 * The player on a touch phone (375×812, touch, mobile viewport), used as a phone user would:
 * taps show and hide the controls and a double tap plays or pauses (Player.tsx, onStagePointerUp),
 * the controls hide by themselves while playing, the control bar is laid out in rows that fit
 * the screen, a member opens the danmaku list and the sender and sends with taps, a row of the
 * list jumps the video to its moment, and the density curve over the seek bar follows where the
 * danmaku are. The danmaku stage is read from the canvas's `danmakuSnapshot` property, never
 * from pixels. A computer block checks the list beside the player and a phone-narrow window
 * with a mouse. Screenshots for a person to look at land in test-results/player-mobile-shots.
 */
import {
  expect,
  test,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import {
  E2E_BASE_URL,
  msg,
  publishVideoByApi,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
  type PublishedVideo,
} from './helpers.ts';

interface SnapshotItem {
  id: number;
  text: string;
  mode: string;
  x: number;
  y: number;
  width: number;
}
interface Snapshot {
  time: number;
  enabled: boolean;
  items: SnapshotItem[];
}

const PHONE = { viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 };
const SHOTS_DIR = 'test-results/player-mobile-shots';
const CLIP_SECONDS = 20;
/** Seeded danmaku: three at one moment (the busy part) and one early (a quiet part). */
const BUSY_AT = 15.1; // in the middle of a density slice (0.2 s each), whatever rounding of the duration
const QUIET_AT = 3.1;
/** Between taps that must not make a double tap (DOUBLE_TAP_MS is 300). */
const TAP_APART_MS = 600;
const SEEDED = [
  { time: BUSY_AT, text: 'busy one' },
  { time: BUSY_AT, text: 'busy two' },
  { time: BUSY_AT, text: 'busy three' },
  { time: QUIET_AT, text: 'quiet one' },
];

test.use(PHONE);

let video: PublishedVideo;
let uploader: Awaited<ReturnType<BrowserContext['cookies']>>;

const videoEl = (page: Page) => page.locator('video[data-video]');
const videoTime = (page: Page) => videoEl(page).evaluate((v: HTMLVideoElement) => v.currentTime);
const isPaused = (page: Page) => videoEl(page).evaluate((v: HTMLVideoElement) => v.paused);
const snapshot = (page: Page) =>
  page.locator('[data-danmaku-stage]').evaluate((c) => (c as unknown as { danmakuSnapshot: Snapshot }).danmakuSnapshot);
const onStage = async (page: Page) => (await snapshot(page)).items.map((i) => i.text);
const player = (page: Page) => page.locator('[data-player]');

/** Sends a danmaku through the API, waiting out the per-member limit (one per 3 s) when it answers 429. */
async function emitByApi(request: APIRequestContext, videoId: number, time: number, text: string) {
  for (;;) {
    const response = await request.post(`${E2E_BASE_URL}/api/video/danmaku/emit`, {
      data: { videoId, time, text, color: 'ffffff' },
    });
    if (response.ok()) return;
    if (response.status() !== 429) throw new Error(`emit answered ${response.status()}: ${await response.text()}`);
    await new Promise((resolve) => setTimeout(resolve, Number(response.headers()['retry-after'] ?? 1) * 1000));
  }
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000); // the real ffmpeg pipeline, and the danmaku limit between seeds
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signUpByApi(page, 'Pocket');
  video = await publishVideoByApi(page, { title: 'Pocket screen', seconds: CLIP_SECONDS });
  for (const d of SEEDED) await emitByApi(page.request, video.videoId, d.time, d.text);
  uploader = await context.cookies();
  await context.close();
});

/** Opens the shared video (as its uploader unless a member is already logged in), metadata known. */
async function openVideo(page: Page, options: { asUploader?: boolean; locale?: string } = {}) {
  if (options.asUploader !== false) await page.context().addCookies(uploader);
  await page.goto(`/${options.locale ?? 'en'}/video/kv${video.videoId}`);
  await waitForIslands(page);
  await showPlayIntent(page);
  // Nothing loads before play (media-loading.ts): start it as a viewer does, then hold still at the start
  // (or where history resumed it).
  await videoEl(page).evaluate(async (v: HTMLVideoElement) => {
    await v.play().catch(() => {});
    v.pause();
    if (v.currentTime < 1) v.currentTime = 0;
  });
  await expect.poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
}

/**
 * Taps (`times` in quick succession, 80 ms apart) on the bare video, away from the big play button
 * and the controls. Each touch carries its own time, as a finger's does, and the player compares
 * those times: sent without them, a busy machine could space the taps wider than a double tap.
 */
async function tapVideo(page: Page, times = 1) {
  const stage = (await page.locator('.player-stage').boundingBox())!;
  const touchPoints = [{ x: stage.x + 40, y: stage.y + 30 }];
  const cdp = await page.context().newCDPSession(page);
  // Seconds since the epoch, the last touch just before now (none is dated after it arrives): a
  // separate call 600 ms later (TAP_APART_MS) is well past the 300 ms of a double tap.
  const start = Date.now() / 1000 - 0.05 - ((times - 1) * 0.08 + 0.04);
  for (let i = 0; i < times; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints, timestamp: start + i * 0.08 });
    await cdp.send('Input.dispatchTouchEvent', {
      type: 'touchEnd',
      touchPoints: [],
      timestamp: start + i * 0.08 + 0.04,
    });
  }
  await cdp.detach();
}

/**
 * A finger's tap in the middle of an element. (Locator.tap scrolls the page first when the
 * controls are still sliding in, which a finger never does.)
 */
async function tapOn(page: Page, locator: Locator) {
  const b = await box(locator);
  await page.touchscreen.tap(b.x + b.width / 2, b.y + b.height / 2);
}

async function box(locator: Locator) {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator} has no box`);
  return b;
}

test('on a phone the stream loads at the first tap: nothing of it before, and that tap on play plays', async ({
  page,
}) => {
  const streaming: string[] = [];
  page.on('request', (request) => {
    if (/hls\.light|\.m3u8/.test(request.url())) streaming.push(request.url());
  });
  await page.context().addCookies(uploader);
  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  await page.waitForLoadState('networkidle');
  expect(streaming).toEqual([]);
  await expect(player(page)).toHaveAttribute('data-source', '');
  // One tap on the big play button: the stream is fetched, attached, and the press is honoured.
  await page.locator('.player-big-play').tap();
  await expect(player(page)).toHaveAttribute('data-source', /hls\.js|native/);
  await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(0.3);
  expect(await isPaused(page)).toBe(false);
});

test('taps show and hide the controls, they hide by themselves while playing, a double tap plays or pauses', async ({
  page,
}) => {
  await openVideo(page, { asUploader: false });
  const controls = page.locator('.player-controls');
  // Paused: the controls are shown; the big play button starts playback.
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  await page.locator('.player-big-play').tap();
  await expect.poll(() => isPaused(page)).toBe(false);
  // Playing untouched: the controls hide by themselves (CONTROLS_HIDE_MS) and take no taps.
  await expect(player(page)).toHaveClass(/controls-hidden/, { timeout: 10_000 });
  await expect(controls).toHaveCSS('pointer-events', 'none');
  // A tap brings them back, playback goes on; they hide again by themselves.
  await tapVideo(page);
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  expect(await isPaused(page)).toBe(false);
  await expect(player(page)).toHaveClass(/controls-hidden/, { timeout: 10_000 });
  // A tap shows them, the next one (not a double tap) hides them again at once.
  await tapVideo(page);
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  await page.waitForTimeout(TAP_APART_MS); // past the double-tap window: a separate tap
  await tapVideo(page);
  await expect(player(page)).toHaveClass(/controls-hidden/);
  expect(await isPaused(page)).toBe(false);

  // A double tap pauses, and a paused player keeps its controls up.
  await page.waitForTimeout(TAP_APART_MS);
  await tapVideo(page, 2);
  await expect.poll(() => isPaused(page)).toBe(true);
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  // The double tap is the player's: it does not also go fullscreen (as a double click does).
  expect(await page.evaluate(() => document.fullscreenElement)).toBe(null);
  await expect(player(page)).not.toHaveClass(/is-fullscreen/);
  // Another double tap plays again.
  await page.waitForTimeout(TAP_APART_MS);
  await tapVideo(page, 2);
  await expect.poll(() => isPaused(page)).toBe(false);
  // Three quick taps are a double tap and a tap: paused, not played again by the third.
  await page.waitForTimeout(TAP_APART_MS);
  await tapVideo(page, 3);
  await expect.poll(() => isPaused(page)).toBe(true);
  expect(await page.evaluate(() => document.fullscreenElement)).toBe(null);

  // The play button in the bar plays and pauses as well.
  await page.waitForTimeout(TAP_APART_MS);
  if (await player(page).evaluate((p) => p.classList.contains('controls-hidden'))) await tapVideo(page);
  await page.locator('[data-play-button]').tap();
  await expect.poll(() => isPaused(page)).toBe(false);
  await page.locator('[data-play-button]').tap();
  await expect.poll(() => isPaused(page)).toBe(true);
});

test('while a menu of the controls is open on a phone, the controls stay up', async ({ page }) => {
  await openVideo(page, { asUploader: false });
  await page.locator('.player-big-play').tap();
  await expect.poll(() => isPaused(page)).toBe(false);
  await expect(player(page)).toHaveClass(/controls-hidden/, { timeout: 10_000 });
  await tapVideo(page);
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  await tapOn(page, page.locator('[data-danmaku-settings-button]'));
  const settings = page.locator('.danmaku-settings');
  await expect(settings).toBeVisible();
  // It fits the video above the controls (longer menus scroll inside).
  const stage = await box(page.locator('.player-stage'));
  const menu = await box(settings);
  expect(menu.x).toBeGreaterThanOrEqual(stage.x);
  expect(menu.x + menu.width).toBeLessThanOrEqual(stage.x + stage.width + 0.5);
  expect(menu.y).toBeGreaterThanOrEqual(stage.y - 0.5);
  expect(menu.y + menu.height).toBeLessThanOrEqual((await box(page.locator('.player-controls'))).y + 0.5);
  await page.screenshot({ path: `${SHOTS_DIR}/375-danmaku-settings.png` });
  // Well past the time the controls hide after (CONTROLS_HIDE_MS, 2.5 s): the menu in use stays.
  // (From the start again: on a busy machine the steps above can take most of the 20 s clip, and
  // a clip that has ended is paused.)
  await videoEl(page).evaluate((v: HTMLVideoElement) => {
    v.currentTime = 0;
  });
  await page.waitForTimeout(4_000);
  expect(await isPaused(page)).toBe(false);
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  await expect(settings).toBeVisible();
  // A tap on the video closes the menu; then the controls hide by themselves again.
  await tapVideo(page);
  await expect(settings).toHaveCount(0);
  await expect(player(page)).toHaveClass(/controls-hidden/, { timeout: 10_000 });
});

test('on a phone, sound, danmaku on/off and the density are a thumb away on the video', async ({ page }) => {
  await openVideo(page, { asUploader: false });
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  const stage = await box(page.locator('.player-stage'));
  const reachable = async (locator: Locator) => {
    const b = await box(locator);
    expect(b.width).toBeGreaterThanOrEqual(32);
    expect(b.height).toBeGreaterThanOrEqual(32);
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(375 + 0.5);
    expect(b.y + b.height).toBeLessThanOrEqual(stage.y + stage.height + 0.5);
  };
  // The volume button is on screen; a tap opens the sound panel (no hover on a phone).
  const volumeButton = page.locator('[data-mute-button]');
  await reachable(volumeButton);
  await tapOn(page, volumeButton);
  const panel = page.locator('[data-volume-popover]');
  await expect(panel).toHaveClass(/touch/);
  const mute = panel.locator('[data-volume-mute]');
  await reachable(mute);
  expect((await box(mute)).height).toBeGreaterThanOrEqual(44);
  const panelBox = await box(panel);
  expect(panelBox.x).toBeGreaterThanOrEqual(0);
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(375 + 0.5);
  expect(panelBox.y).toBeGreaterThanOrEqual(stage.y - 0.5);
  await page.screenshot({ path: `${SHOTS_DIR}/375-volume.png` });
  await tapOn(page, mute);
  await expect.poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await expect(mute).toHaveAttribute('aria-pressed', 'true');
  await tapOn(page, mute);
  await expect.poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.muted)).toBe(false);
  // Chromium lets the page set the volume: the slider is there, across the panel, and sets it.
  const slider = panel.locator('[data-volume-slider]');
  const sliderBox = await box(slider);
  expect(sliderBox.width).toBeGreaterThan(sliderBox.height);
  await page.touchscreen.tap(sliderBox.x + 2, sliderBox.y + sliderBox.height / 2);
  await expect.poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.volume)).toBeLessThan(0.1);
  // A tap on the video closes it.
  await tapVideo(page);
  await expect(panel).toHaveCount(0);
  if (await player(page).evaluate((p) => p.classList.contains('controls-hidden'))) await tapVideo(page);
  // The controls slide back in (the tap that closed the panel may have hidden them): measured once there.
  await page.locator('.player-controls').evaluate((el) => Promise.all(el.getAnimations().map((a) => a.finished)));

  // Danmaku off and on again with one tap each.
  const toggle = page.locator('[data-danmaku-toggle]');
  await reachable(toggle);
  await tapOn(page, toggle);
  await expect.poll(async () => (await snapshot(page)).enabled).toBe(false);
  await tapOn(page, toggle);
  await expect.poll(async () => (await snapshot(page)).enabled).toBe(true);

  // The density is the first thing in the danmaku settings, in view without scrolling the menu.
  await tapOn(page, page.locator('[data-danmaku-settings-button]'));
  const settings = page.locator('.danmaku-settings');
  const menu = await box(settings);
  for (const density of ['readable', 'dense', 'all']) {
    const chip = settings.locator('label.chip', { has: page.locator(`[data-danmaku-density="${density}"]`) });
    const b = await box(chip);
    expect(b.height).toBeGreaterThanOrEqual(40);
    expect(b.y).toBeGreaterThanOrEqual(menu.y);
    expect(b.y + b.height).toBeLessThanOrEqual(menu.y + menu.height + 0.5);
    expect(b.x + b.width).toBeLessThanOrEqual(375 + 0.5);
  }
  await expect(settings.locator('[data-danmaku-density="readable"]')).toBeChecked();
  await tapOn(page, settings.locator('label.chip', { has: page.locator('[data-danmaku-density="all"]') }));
  await expect(settings.locator('[data-danmaku-density="all"]')).toBeChecked();
  await expect(settings.locator('.density-hint')).toHaveText(msg('en', 'player.densityHints.all'));
  await page.screenshot({ path: `${SHOTS_DIR}/375-density.png` });
  // Kept with the player settings: the next page opens in storm mode.
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('player-settings') ?? '{}').danmaku?.density)).toBe(
    'all',
  );
  await page.reload();
  await waitForIslands(page);
  await tapOn(page, page.locator('[data-danmaku-settings-button]'));
  await expect(page.locator('[data-danmaku-density="all"]')).toBeChecked();
  await tapOn(page, page.locator('label.chip', { has: page.locator('[data-danmaku-density="readable"]') }));
});

test.describe('on an iPhone (no Fullscreen API for elements)', () => {
  // Chromium has the Fullscreen API: it is taken away before the page runs, and the video gets
  // iOS's own webkitEnterFullscreen, which records the call and reports as iOS does.
  test.beforeEach(async ({ page }) => {
    await page.addInitScript(() => {
      delete (Element.prototype as Partial<Element>).requestFullscreen;
      Object.defineProperty(Document.prototype, 'fullscreenEnabled', { configurable: true, get: () => undefined });
      Object.assign(HTMLVideoElement.prototype, {
        webkitSupportsFullscreen: true,
        webkitEnterFullscreen(this: HTMLVideoElement) {
          (window as unknown as { videoFullscreenCalls: number }).videoFullscreenCalls =
            ((window as unknown as { videoFullscreenCalls?: number }).videoFullscreenCalls ?? 0) + 1;
          this.dispatchEvent(new Event('webkitbeginfullscreen'));
        },
      });
    });
  });

  test('the fullscreen button puts the video element fullscreen, and the player follows its end', async ({ page }) => {
    await openVideo(page, { asUploader: false });
    const button = page.locator('[data-fullscreen-button]');
    await expect(button).toBeVisible();
    await tapOn(page, button);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { videoFullscreenCalls?: number }).videoFullscreenCalls))
      .toBe(1);
    expect(await page.evaluate(() => document.fullscreenElement)).toBe(null);
    await expect(player(page)).toHaveClass(/is-fullscreen/);
    await expect(button).toHaveAttribute('aria-label', msg('en', 'player.exitFullscreen'));
    // The system player's Done button ends it.
    await videoEl(page).evaluate((v) => v.dispatchEvent(new Event('webkitendfullscreen')));
    await expect(player(page)).not.toHaveClass(/is-fullscreen/);
    await expect(button).toHaveAttribute('aria-label', msg('en', 'player.fullscreen'));
  });
});

// English, and the two languages with the longest labels on the text buttons (quality, speed).
for (const locale of ['en', 'fr', 'id'] as const) {
  test(`at phone width the control bar is a seek row and a button row that fit the screen (${locale})`, async ({
    page,
  }) => {
    await openVideo(page, { asUploader: false, locale });
    await expect(player(page)).not.toHaveClass(/controls-hidden/);
    // Every rung known, so the quality button is there as well.
    await expect(page.locator('[data-quality-button]')).toBeVisible();
    await page.screenshot({ path: `${SHOTS_DIR}/375-controls-${locale}.png` });
    const stage = await box(page.locator('.player-stage'));
    expect(stage.width).toBeCloseTo(375, 0);
    const seek = await box(page.locator('[data-seek-bar]'));
    const time = await box(page.locator('[data-player-time]'));
    const buttons = page.locator('.player-controls .ctl:visible');
    const count = await buttons.count();
    expect(count).toBeGreaterThanOrEqual(8);
    const boxes = await Promise.all(Array.from({ length: count }, (_, i) => box(buttons.nth(i))));

    // Row one: the seek bar across the video, the time at its end, both inside the video.
    expect(Math.abs(seek.y + seek.height / 2 - (time.y + time.height / 2))).toBeLessThan(2);
    expect(seek.x).toBeGreaterThanOrEqual(stage.x);
    expect(seek.x + seek.width).toBeLessThanOrEqual(time.x + 0.5);
    expect(time.x + time.width).toBeLessThanOrEqual(stage.x + stage.width + 0.5);
    expect(seek.width).toBeGreaterThan(220);
    const rowOneBottom = Math.max(seek.y + seek.height, time.y + time.height);

    // Row two: every button on one line under it, inside the screen and the video, none
    // overlapping another, each big enough for a finger.
    for (const b of [...boxes, time]) {
      expect(b.height).toBeGreaterThanOrEqual(32);
      expect(b.width).toBeGreaterThanOrEqual(32);
    }
    const centres = boxes.map((b) => b.y + b.height / 2);
    expect(Math.max(...centres) - Math.min(...centres)).toBeLessThan(2);
    const sorted = [...boxes].sort((a, b) => a.x - b.x);
    expect(sorted[0].x).toBeGreaterThanOrEqual(0);
    expect(sorted.at(-1)!.x + sorted.at(-1)!.width).toBeLessThanOrEqual(375 + 0.5);
    for (let i = 1; i < sorted.length; i++)
      expect(sorted[i].x).toBeGreaterThanOrEqual(sorted[i - 1].x + sorted[i - 1].width - 0.5);
    for (const b of boxes) {
      expect(b.y).toBeGreaterThanOrEqual(rowOneBottom - 0.5);
      expect(b.y + b.height).toBeLessThanOrEqual(stage.y + stage.height + 0.5);
    }
    // The play button comes first; the text buttons show their whole label.
    expect(sorted[0]).toEqual(await box(page.locator('[data-play-button]')));
    for (const text of await page.locator('.player-controls .ctl.text').all()) {
      expect(await text.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
    }
    // The controls leave most of the picture free, and the big play button clear of them.
    const controls = await box(page.locator('.player-controls'));
    expect(controls.height).toBeLessThan(stage.height * 0.45);
    await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.pause());
    const bigPlay = await box(page.locator('.player-big-play'));
    expect(bigPlay.y + bigPlay.height).toBeLessThanOrEqual(controls.y);
  });
}

test('a member opens the danmaku list and the sender on a phone and sends with taps', async ({ page }) => {
  test.setTimeout(90_000);
  await signUpByApi(page, 'Thumbs'); // not the uploader: its own danmaku limit
  await openVideo(page, { asUploader: false });
  await videoEl(page).evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
  });
  await expect.poll(() => videoTime(page)).toBeCloseTo(1, 1);

  // The list, under the player, fits the screen and shows time, text and when it was sent.
  await page.locator('[data-list-toggle]').tap();
  const list = page.locator('[data-danmaku-list]');
  await expect(list).toBeVisible();
  const rows = list.locator('.danmaku-row:not(.head)');
  await expect(rows).toHaveCount(SEEDED.length);
  const listBox = await box(list);
  expect(listBox.x).toBeGreaterThanOrEqual(0);
  expect(listBox.x + listBox.width).toBeLessThanOrEqual(375);
  const quiet = rows.filter({ hasText: 'quiet one' });
  await expect(quiet.locator('[role=cell]').nth(0)).toHaveText('0:03');
  await expect(quiet.locator('[role=cell]').nth(2)).toBeVisible();
  await expect(quiet.locator('[role=cell]').nth(2)).toHaveText(/\d{2}.\d{2}.*\d{2}:\d{2}/);
  for (const cell of await quiet.locator('[role=cell]').all()) {
    const b = await box(cell);
    expect(b.x + b.width).toBeLessThanOrEqual(listBox.x + listBox.width + 0.5);
  }
  await page.screenshot({ path: `${SHOTS_DIR}/375-list.png` });

  // The sender: style popover opened with a tap, a mode picked, text typed, sent with a tap.
  await page.locator('.danmaku-style-wrap .icon-btn').tap();
  const style = page.locator('.danmaku-style');
  await expect(style).toBeVisible();
  const styleBox = await box(style);
  expect(styleBox.x).toBeGreaterThanOrEqual(0);
  expect(styleBox.x + styleBox.width).toBeLessThanOrEqual(375);
  await page.screenshot({ path: `${SHOTS_DIR}/375-sender.png` });
  await style.getByText(msg('en', 'player.modes.top'), { exact: true }).tap();
  await page.locator('.danmaku-style-wrap .icon-btn').tap();
  await expect(style).toHaveCount(0);
  const input = page.locator('[data-danmaku-input]');
  await input.tap();
  await page.keyboard.type('hello from a phone');
  const send = page.locator('[data-danmaku-send]');
  const sendBox = await box(send);
  expect(sendBox.x + sendBox.width).toBeLessThanOrEqual(375);
  expect(sendBox.height).toBeGreaterThanOrEqual(32);
  const emitted = page.waitForResponse((r) => r.url().includes('/api/video/danmaku/emit'));
  await send.tap();
  await expect.poll(() => onStage(page)).toContain('hello from a phone');
  expect((await emitted).ok()).toBe(true);
  await expect(input).toHaveValue('');
  const sent = (await snapshot(page)).items.find((i) => i.text === 'hello from a phone')!;
  expect(sent.mode).toBe('top');
  await expect(rows).toHaveCount(SEEDED.length + 1);
  await expect(rows.filter({ hasText: 'hello from a phone' }).locator('[role=cell]').first()).toHaveText('0:01');
  await page.screenshot({ path: `${SHOTS_DIR}/375-sent.png` });
});

/**
 * Where the next seek lands, read when it lands (the `seeked` event): playback resumes at once
 * after a jump, so a later read of the clock says more about how busy the machine is than about the jump.
 * The listener is in place before this resolves, so the act that seeks can only come after it.
 */
async function nextSeekLanding(page: Page): Promise<() => Promise<number>> {
  await videoEl(page).evaluate((v: HTMLVideoElement) => {
    (window as unknown as { landing: Promise<number> }).landing = new Promise<number>((resolve) =>
      v.addEventListener('seeked', () => resolve(v.currentTime), { once: true }),
    );
  });
  return () => page.evaluate(() => (window as unknown as { landing: Promise<number> }).landing);
}

test('a row of the danmaku list jumps the video to that danmaku', async ({ page }) => {
  await openVideo(page);
  await page.locator('[data-list-toggle]').tap();
  const rows = page.locator('[data-danmaku-list] .danmaku-row:not(.head)');
  await expect(rows.filter({ hasText: 'busy two' })).toHaveCount(1);
  // Far from that moment (a member may resume where another test of this file left off, near 0:01).
  expect(await videoTime(page)).toBeLessThan(BUSY_AT - 5);
  const busyLanding = await nextSeekLanding(page);
  await rows.filter({ hasText: 'busy two' }).tap();
  const busyAt = await busyLanding();
  expect(busyAt).toBeGreaterThanOrEqual(BUSY_AT - 0.1);
  expect(busyAt).toBeLessThan(BUSY_AT + 1);
  // Seeking resumes playback by default (autoResumePlayAfterSeeking): from that moment on.
  await expect.poll(() => videoTime(page)).toBeGreaterThanOrEqual(BUSY_AT - 0.1);
  await expect(page.locator('[data-seek-bar]')).toHaveAttribute('aria-valuenow', /^(1[5-9]|2\d)$/);
  // The danmaku of that moment are on the stage.
  await expect
    .poll(async () => (await onStage(page)).sort())
    .toEqual(expect.arrayContaining(['busy one', 'busy three', 'busy two']));
  // And back to the quiet one.
  await videoEl(page).evaluate((v: HTMLVideoElement) => v.pause());
  const quietLanding = await nextSeekLanding(page);
  await rows.filter({ hasText: 'quiet one' }).tap();
  const quietAt = await quietLanding();
  expect(quietAt).toBeGreaterThanOrEqual(QUIET_AT - 0.1);
  expect(quietAt).toBeLessThan(QUIET_AT + 1);
});

test('the density curve over the seek bar is highest where the danmaku are', async ({ page }) => {
  await openVideo(page);
  const density = page.locator('[data-seek-bar] [data-density]');
  await expect(density).toHaveAttribute('data-density', /[1-9]/);
  const bins = (await density.getAttribute('data-density'))!.split(' ').map(Number);
  expect(bins).toHaveLength(100);
  const duration = await videoEl(page).evaluate((v: HTMLVideoElement) => v.duration);
  const binOf = (time: number) => Math.min(bins.length - 1, Math.floor((time / duration) * bins.length));
  // The busiest slice is the one with three danmaku; the quiet one has a third of it.
  expect(bins[binOf(BUSY_AT)]).toBe(1);
  expect(bins.indexOf(Math.max(...bins))).toBe(binOf(BUSY_AT));
  expect(bins[binOf(QUIET_AT)]).toBeCloseTo(1 / 3, 2);
  // Where nobody wrote (the middle of the video), the curve is flat at zero. A danmaku sent by
  // another test of this file lands near 0:01, outside this part.
  for (let i = binOf(5); i < binOf(14); i++) expect(bins[i]).toBe(0);
  // The drawn path follows the same values: its peak is over the busy part of the bar.
  const peak = await page.locator('[data-seek-bar] .seek-density path').evaluate((path: SVGPathElement) => {
    const svg = path.ownerSVGElement!;
    const length = path.getTotalLength();
    let best = { x: 0, y: Infinity };
    for (let l = 0; l <= length; l += length / 2000) {
      const p = path.getPointAtLength(l);
      if (p.y < best.y) best = { x: p.x, y: p.y };
    }
    return { fraction: best.x / svg.viewBox.baseVal.width, height: 1 - best.y / svg.viewBox.baseVal.height };
  });
  expect(peak.height).toBeCloseTo(1, 2);
  expect(peak.fraction * duration).toBeGreaterThan(BUSY_AT - 0.5);
  expect(peak.fraction * duration).toBeLessThan(BUSY_AT + 0.5);
  // On a touch screen (no hover) the curve shows with the controls, over the seek bar.
  await expect(player(page)).not.toHaveClass(/controls-hidden/);
  await expect(density).toHaveCSS('opacity', '1');
  const curve = await box(density);
  const bar = await box(page.locator('[data-seek-bar] .seek-track'));
  expect(curve.x).toBeCloseTo(bar.x, 0);
  expect(curve.width).toBeCloseTo(bar.width, 0);
  expect(curve.y + curve.height).toBeLessThanOrEqual(bar.y + bar.height + 0.5);
});

test.describe('on a computer', () => {
  test.use({ viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false, deviceScaleFactor: 1 });

  test('a click on a row of the list beside the player seeks there, and the curve shows on hover', async ({ page }) => {
    await openVideo(page);
    await page.locator('[data-list-toggle]').click();
    const list = page.locator('[data-danmaku-list]');
    // Beside the player, not under it.
    const main = await box(page.locator('.player-main'));
    expect((await box(list)).x).toBeGreaterThanOrEqual(main.x + main.width);
    const density = page.locator('[data-seek-bar] [data-density]');
    await expect(density).toHaveCSS('opacity', '0');
    await page.locator('[data-seek-bar]').hover();
    await expect(density).toHaveCSS('opacity', '1');
    const landing = await nextSeekLanding(page);
    await list.locator('.danmaku-row:not(.head)').filter({ hasText: 'quiet one' }).click();
    const landedAt = await landing();
    expect(landedAt).toBeGreaterThanOrEqual(QUIET_AT - 0.1);
    expect(landedAt).toBeLessThan(QUIET_AT + 1);
    await page.locator('[data-seek-bar]').hover();
    await page.screenshot({ path: `${SHOTS_DIR}/1280-list.png` });
  });

  test('in a window as narrow as a phone, with a mouse (volume shown), no control runs over another', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 375, height: 812 });
    await openVideo(page, { asUploader: false, locale: 'fr' });
    await expect(page.locator('[data-quality-button]')).toBeVisible();
    await expect(page.locator('[data-mute-button]')).toBeVisible();
    const boxes = await Promise.all(
      (await page.locator('.player-controls .ctl:visible, .player-controls [data-player-time]').all()).map(box),
    );
    for (const [i, a] of boxes.entries()) {
      expect(a.x).toBeGreaterThanOrEqual(0);
      expect(a.x + a.width).toBeLessThanOrEqual(375 + 0.5);
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width <= b.x + 0.5 ||
          b.x + b.width <= a.x + 0.5 ||
          a.y + a.height <= b.y + 0.5 ||
          b.y + b.height <= a.y + 0.5;
        expect(apart).toBe(true);
      }
    }
    await page.locator('.player-main').screenshot({ path: `${SHOTS_DIR}/375-mouse-fr.png` });
  });
});
