/**
 * The video page and its player as viewers use them: playback through hls.js with a quality
 * choice, keyboard shortcuts, resuming from history, danmaku in every mode (at once, and after a
 * reload), scrolling speed following the playback rate, block lists, and the shortcut list in
 * settings. The danmaku stage is a canvas: its state is read from the `danmakuSnapshot` property
 * the stage element exposes (src/lib/danmaku/overlay.ts), never from pixels.
 */
import { expect, test, type Page } from '@playwright/test';
import { SHORTCUTS } from '../../src/lib/player/shortcuts.ts';
import { msg, publishVideoByApi, showPlayIntent, signUpByApi, waitForIslands } from './helpers.ts';

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

const snapshot = (page: Page) =>
  page.locator('[data-danmaku-stage]').evaluate((c) => (c as unknown as { danmakuSnapshot: Snapshot }).danmakuSnapshot);
const onStage = async (page: Page) => (await snapshot(page)).items.map((i) => i.text);
const videoTime = (page: Page) => page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.currentTime);
const SHOTS = process.env.PLAYER_SCREENSHOTS;

/** Controls hide while playing: a pointer move over the video brings them back first. */
async function control(page: Page, selector: string) {
  await page.locator('.player-stage').hover({ position: { x: 40, y: 40 } });
  await page.locator(selector).click();
}

async function openVideo(page: Page, videoId: number) {
  await page.goto(`/en/video/kv${videoId}`);
  await waitForIslands(page);
  await showPlayIntent(page);
}

test('a member watches through hls.js, picks a quality, uses the keyboard and resumes from history', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000); // publishing runs the real ffmpeg pipeline
  await signUpByApi(page, 'Watcher');
  const { videoId } = await publishVideoByApi(page, {
    title: 'Player e2e playback',
    seconds: 20,
    description: 'First line\n<b>not bold</b>',
  });
  await openVideo(page, videoId);
  const player = page.locator('[data-player]');
  await expect(player).toHaveAttribute('data-source', 'hls.js');
  await expect(page.locator('.video-title')).toHaveText('Player e2e playback');
  await expect(page.locator('.video-description')).toHaveText('First line\n<b>not bold</b>');
  await expect(page.locator('[data-comments-slot]')).toBeAttached();

  await page.locator('[data-play-button]').click();
  await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThan(1);
  await expect(player).toHaveAttribute('data-level', /^\d+$/);
  await expect(player).toHaveAttribute('data-quality', 'auto');

  // A fixed rung, remembered for the next visit.
  const lowest = (await player.getAttribute('data-levels'))!
    .split(',')
    .map(Number)
    .sort((a, b) => a - b)[0];
  await control(page, '[data-quality-button]');
  await page
    .locator('[data-quality-menu]')
    .getByRole('menuitemradio', { name: `${lowest}p`, exact: true })
    .click();
  await expect(player).toHaveAttribute('data-quality', String(lowest));
  await expect(player).toHaveAttribute('data-level', String(lowest));

  // Keyboard: Space, M, Down/Up, Right, Ctrl+Right, D, web fullscreen and Esc.
  const video = page.locator('video[data-video]');
  await page.keyboard.press('Space');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
  await page.keyboard.press('m');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(true);
  await page.keyboard.press('m');
  await page.keyboard.press('ArrowDown');
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => [v.muted, Number(v.volume.toFixed(3))]))
    .toEqual([false, Number((0.9 ** 3).toFixed(3))]);
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.volume)).toBeCloseTo(1, 5);
  const before = await videoTime(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => videoTime(page)).toBeCloseTo(before + 5, 0);
  await page.keyboard.press('Control+ArrowRight');
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.playbackRate)).toBe(1.25);
  await page.keyboard.press('Control+ArrowLeft');
  await page.keyboard.press('d');
  await expect.poll(async () => (await snapshot(page)).enabled).toBe(false);
  await page.keyboard.press('d');
  await control(page, '[data-web-fullscreen-button]');
  await expect(player).toHaveClass(/is-web-fullscreen/);
  await page.keyboard.press('Escape');
  await expect(player).not.toHaveClass(/is-web-fullscreen/);

  // The position is written on pause and restored after a reload.
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 11;
  });
  const recorded = page.waitForResponse((r) => r.url().includes('/api/history/record') && r.ok());
  await page.keyboard.press('Space'); // play
  await expect.poll(() => videoTime(page)).toBeGreaterThan(11.2);
  await page.keyboard.press('Space'); // pause: recorded
  await recorded;
  const left = await videoTime(page);
  // Nothing of the stream loads before the viewer means to play: not hls.js, not a playlist
  // (use-hls-source.ts); no media segment before play (media-loading.ts); playing resumes where
  // they left off.
  const segments: string[] = [];
  const streaming: string[] = [];
  page.on('request', (request) => {
    if (/(\.m4s|\.ts|init\.mp4)(\?|$)/.test(request.url())) segments.push(request.url());
    if (/hls\.light|\.m3u8/.test(request.url())) streaming.push(request.url());
  });
  await page.reload();
  await waitForIslands(page);
  await page.waitForLoadState('networkidle');
  expect(streaming).toEqual([]);
  await expect(player).toHaveAttribute('data-source', '');
  await showPlayIntent(page, 'hls.js');
  expect(streaming.some((url) => url.includes('.m3u8'))).toBe(true);
  expect(segments).toEqual([]);
  await page.locator('[data-play-button]').click();
  await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(left - 0.5);
  await page.keyboard.press('Space'); // pause
  await expect(player).toHaveAttribute('data-quality', String(lowest));

  // The shortcut list in settings comes from the same table.
  await page.goto('/en/settings/shortcut-key');
  const rows = page.locator('[data-shortcut-list] tbody tr');
  await expect(rows).toHaveCount(SHORTCUTS.length);
  await expect(rows.filter({ hasText: msg('en', 'player.actions.toggleSubtitles') })).toContainText('C');
  await expect(rows.filter({ hasText: msg('en', 'player.actions.togglePlay') })).toContainText(
    msg('en', 'player.keys.space'),
  );
  await expect(rows.filter({ hasText: msg('en', 'player.actions.rateUp') })).toContainText('Ctrl + →');

  // A guest sees the video and is asked to log in to send danmaku.
  const guest = await browser.newPage();
  await guest.goto(`/en/video/kv${videoId}`);
  await waitForIslands(guest);
  await expect(guest.locator('[data-danmaku-sender].is-guest')).toContainText(msg('en', 'player.loginToSend'));
  await guest.close();
});

test('danmaku: sent in every mode, on stage at once and after reload, speed follows the rate, block lists apply', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpByApi(page, 'Sender');
  const { videoId } = await publishVideoByApi(page, { title: 'Player e2e danmaku', seconds: 20 });
  await openVideo(page, videoId);
  // Send about one second in.
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 1;
  });
  await expect.poll(() => videoTime(page)).toBeCloseTo(1, 1);

  const input = page.locator('[data-danmaku-input]');
  const modes = ['rtl', 'ltr', 'top', 'bottom'] as const;
  for (const [index, mode] of modes.entries()) {
    if (index > 0) await page.waitForTimeout(3_100); // one danmaku per 3 s
    await page.locator('.danmaku-style-wrap .icon-btn').click();
    await page
      .locator('.danmaku-style')
      .getByText(msg('en', `player.modes.${mode}`), { exact: true })
      .click();
    await page.locator('.danmaku-style-wrap .icon-btn').click();
    const emitted = page.waitForResponse((r) => r.url().includes('/api/video/danmaku/emit'));
    await input.fill(`${mode} hello`);
    await input.press('Enter');
    // Optimistic: on stage before the server answers.
    await expect.poll(() => onStage(page)).toContain(`${mode} hello`);
    expect((await emitted).ok()).toBe(true);
    if (index === 0) {
      // Refused (the server's 429, answered here so the timing of a busy machine cannot matter):
      // a toast says why, the comment leaves the stage and the text comes back to the field.
      await page.route(
        '**/api/video/danmaku/emit',
        (route) =>
          route.fulfill({
            status: 429,
            headers: { 'Retry-After': '2' },
            contentType: 'application/json',
            body: JSON.stringify({ success: false, code: 'RATE_LIMITED', message: msg('en', 'api.rateLimited') }),
          }),
        { times: 1 },
      );
      await input.fill('too soon');
      await input.press('Enter');
      await expect(page.locator('.toast')).toContainText(msg('en', 'api.rateLimited'));
      await expect.poll(() => onStage(page)).not.toContain('too soon');
      await expect(input).toHaveValue('too soon');
      await input.fill('');
    }
  }
  const stage = await snapshot(page);
  expect(stage.items.map((i) => i.mode).sort()).toEqual(['bottom', 'ltr', 'rtl', 'top']);
  // Confirmed by the server: real ids.
  await expect.poll(async () => (await snapshot(page)).items.every((i) => i.id > 0)).toBe(true);

  await page.reload();
  await waitForIslands(page);
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 2;
  });
  await expect
    .poll(async () => (await onStage(page)).sort())
    .toEqual(['bottom hello', 'ltr hello', 'rtl hello', 'top hello']);
  await page.locator('[data-list-toggle]').click();
  await expect(page.locator('[data-danmaku-list] .danmaku-row:not(.head)')).toHaveCount(4);

  // Scrolling speed follows the playback rate. The engine is driven by the video clock, so the
  // comment moves the same distance per second of video at every rate, and therefore twice as
  // fast on screen at 2x as the video itself plays twice as fast. Both are measured: px per
  // video second (exact, whatever the machine's load) and px per wall-clock second (ordering
  // only, because a busy machine may decode 2x video slower than real time).
  const speedAt = async (rate: number) =>
    page.evaluate(async (rate) => {
      const v = document.querySelector<HTMLVideoElement>('video[data-video]')!;
      const c = document.querySelector('[data-danmaku-stage]') as unknown as { danmakuSnapshot: Snapshot };
      v.playbackRate = rate;
      v.currentTime = 2;
      void v.play();
      for (let i = 0; i < 100 && !(v.currentTime > 2.1 && !v.seeking && v.readyState >= 3); i++)
        await new Promise((r) => setTimeout(r, 100));
      const sample = () => {
        const shot = c.danmakuSnapshot; // the stage and the video time it was drawn at, together
        return { x: shot.items.find((i) => i.text === 'rtl hello')!.x, video: shot.time, wall: performance.now() };
      };
      const a = sample();
      await new Promise((r) => setTimeout(r, 1200));
      const b = sample();
      v.pause();
      return {
        perVideoSecond: (a.x - b.x) / (b.video - a.video),
        perWallSecond: (a.x - b.x) / ((b.wall - a.wall) / 1000),
      };
    }, rate);
  const normal = await speedAt(1);
  const slow = await speedAt(0.5);
  const fast = await speedAt(2);
  expect(normal.perVideoSecond).toBeGreaterThan(20);
  for (const other of [slow, fast]) {
    expect(other.perVideoSecond / normal.perVideoSecond).toBeGreaterThan(0.85);
    expect(other.perVideoSecond / normal.perVideoSecond).toBeLessThan(1.15);
  }
  expect(slow.perWallSecond).toBeLessThan(normal.perWallSecond);
  expect(fast.perWallSecond).toBeGreaterThan(normal.perWallSecond);

  // A keyword the viewer blocks (through the real block list) hides matching danmaku, in any case.
  expect((await page.request.post('/api/block/keyword', { data: { blockKeyword: 'BOTTOM' } })).ok()).toBe(true);
  await page.reload();
  await waitForIslands(page);
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => {
    v.currentTime = 2;
  });
  await expect.poll(async () => (await onStage(page)).sort()).toEqual(['ltr hello', 'rtl hello', 'top hello']);

  if (SHOTS) {
    await page.locator('[data-list-toggle]').click();
    await screenshots(page);
  }
});

/** The page as a viewer sees it, for a person to look at (PLAYER_SCREENSHOTS=1). */
async function screenshots(page: Page) {
  const dir = 'test-results/player-shots';
  await page.evaluate(() => document.querySelector<HTMLVideoElement>('video[data-video]')!.play());
  await page.waitForTimeout(600);
  await page.screenshot({ path: `${dir}/1280-list.png` });
  await control(page, '[data-danmaku-settings-button]');
  await page.screenshot({ path: `${dir}/1280-danmaku-settings.png` });
  await page.locator('[data-danmaku-settings-button]').click();
  await control(page, '[data-settings-button]');
  await page.screenshot({ path: `${dir}/1280-playback-settings.png` });
  await page.locator('[data-open-stats]').click();
  await page.screenshot({ path: `${dir}/1280-stats.png` });
  await page.setViewportSize({ width: 375, height: 812 });
  await page.waitForTimeout(400);
  await page.locator('.player-stage').hover({ position: { x: 40, y: 40 } });
  await page.screenshot({ path: `${dir}/375-playing.png`, fullPage: true });
  await page.locator('.danmaku-style-wrap .icon-btn').click();
  await page.screenshot({ path: `${dir}/375-style.png` });
}
