/**
 * The player's controls as a viewer uses them: storyboard previews on the seek bar, fullscreen
 * (F, Esc, the button) and web fullscreen, picture-in-picture, screenshots (file name and size),
 * the watch position written when the page goes away and resumed on return, and frame stepping
 * at the stream's real frame rate. One video (20 s, 25 fps, 640×360 from the helpers' ffmpeg
 * clip) is published once and shared; each test opens it in its own page. Screenshots taken
 * while a lower rung plays use a second, 720p video (two rungs), published by their own group.
 */
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import {
  E2E_BASE_URL,
  msg,
  publishVideoByApi,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
  type PublishedVideo,
} from './helpers.ts';

/** The helpers' clip (makeClip): testsrc2 at 25 frames per second, 640×360. */
const CLIP_FPS = 25;
const CLIP = { width: 640, height: 360, seconds: 20 };
const SHOTS_DIR = 'test-results/player-controls-shots';

let video: PublishedVideo;
let member: Awaited<ReturnType<BrowserContext['cookies']>>;

const videoEl = (page: Page) => page.locator('video[data-video]');
const videoTime = (page: Page) => videoEl(page).evaluate((v: HTMLVideoElement) => v.currentTime);
const fullscreenOf = (page: Page) => page.evaluate(() => document.fullscreenElement?.className ?? null);

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000); // the real ffmpeg pipeline: ladder, poster and storyboard
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  const page = await context.newPage();
  await signUpByApi(page, 'Controls');
  video = await publishVideoByApi(page, { title: 'Harbour lights', seconds: CLIP.seconds });
  // Storyboard previews come with the last step of the pipeline (status ready).
  await expect
    .poll(
      async () => (await (await page.request.get(`/api/video/media/status?mediaId=${video.mediaId}`)).json()).status,
      { timeout: 90_000, intervals: [500] },
    )
    .toBe('ready');
  member = await context.cookies();
  await context.close();
});

/** Opens the shared video as its uploader, with hls.js attached and the metadata known. */
async function openVideo(page: Page, options: { loggedIn?: boolean } = {}) {
  if (options.loggedIn !== false) await page.context().addCookies(member);
  await page.goto(`/en/video/kv${video.videoId}`);
  await waitForIslands(page);
  await showPlayIntent(page, 'hls.js');
  // Nothing loads before play (media-loading.ts): start it as a viewer does, then hold still at the start
  // (or where history resumed it).
  await videoEl(page).evaluate(async (v: HTMLVideoElement) => {
    await v.play().catch(() => {});
    v.pause();
    if (v.currentTime < 1) v.currentTime = 0;
  });
  await expect.poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
}

/** Pauses at `at` and waits until that frame is decoded. */
async function pauseAt(page: Page, at: number) {
  await videoEl(page).evaluate((v: HTMLVideoElement, at) => {
    v.pause();
    v.currentTime = at;
  }, at);
  await expect
    .poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => !v.seeking && v.readyState >= 2 && v.paused))
    .toBe(true);
}

test('hovering the seek bar previews the storyboard frame and the time there', async ({ page }) => {
  await openVideo(page, { loggedIn: false });
  await expect
    .poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => v.duration))
    .toBeGreaterThan(CLIP.seconds - 1);
  const duration = await videoEl(page).evaluate((v: HTMLVideoElement) => v.duration);
  const bar = page.locator('[data-seek-bar]');
  const box = (await bar.boundingBox())!;
  const preview = page.locator('[data-seek-preview]');
  const frame = preview.locator('.seek-frame');
  await expect(preview).toHaveCount(0);

  // The storyboard is one real image: 20 one-second tiles of 160×90 in a 10×2 grid.
  await page.evaluate(() => {
    const board = document.querySelector('[data-seek-bar]')!;
    board.dispatchEvent(
      new PointerEvent('pointermove', {
        bubbles: true,
        clientX: board.getBoundingClientRect().left + 1,
        pointerType: 'mouse',
      }),
    );
  });
  await expect(frame).toBeVisible();
  const sprite = await frame.evaluate(async (f) => {
    const url = /url\("(.+)"\)/.exec(getComputedStyle(f).backgroundImage)?.[1];
    const image = new Image();
    image.src = url!;
    await image.decode();
    return { url, width: image.naturalWidth, height: image.naturalHeight };
  });
  expect(sprite.url).toMatch(/\/storyboard\.jpg$/);
  expect(sprite).toMatchObject({ width: 1600, height: 180 });

  const seen: string[] = [];
  // Away from the seconds' edges (0.6 of a 20 s clip is 12.0 exactly, and the bar's layout can
  // move a fraction of a pixel between the test's reading and the page's).
  for (const fraction of [0.125, 0.63, 0.92, 0.005, 0.995]) {
    const x = box.x + box.width * fraction;
    await page.mouse.move(x, box.y + box.height / 2);
    const at = Math.min(1, Math.max(0, (x - box.x) / box.width)) * duration;
    const tile = Math.floor(at);
    await expect(preview).toBeVisible();
    await expect(preview.locator('span')).toHaveText(`0:${String(Math.floor(at)).padStart(2, '0')}`);
    await expect(frame).toHaveCSS('background-position', `${-(tile % 10) * 160}px ${-Math.floor(tile / 10) * 90}px`);
    await expect(frame).toHaveCSS('width', '160px');
    seen.push(await frame.evaluate((f) => getComputedStyle(f).backgroundPosition));
    // The preview stays inside the player (it is clipped otherwise).
    const stage = (await page.locator('.player-stage').boundingBox())!;
    const shown = (await preview.boundingBox())!;
    expect(shown.x).toBeGreaterThanOrEqual(stage.x);
    expect(shown.x + shown.width).toBeLessThanOrEqual(stage.x + stage.width + 0.5);
  }
  expect(new Set(seen).size).toBe(5);
  await page.mouse.move(box.x + box.width / 2, box.y - 200);
  await expect(preview).toHaveCount(0);
});

test('F enters and leaves fullscreen, Esc leaves it, and web fullscreen fills the window', async ({ page }) => {
  await openVideo(page, { loggedIn: false });
  const player = page.locator('[data-player]');
  await page.keyboard.press('f');
  await expect.poll(() => fullscreenOf(page)).toBe('player-main');
  await expect(player).toHaveClass(/is-fullscreen/);
  await expect(page.locator('[data-fullscreen-button]')).toHaveAttribute(
    'aria-label',
    msg('en', 'player.exitFullscreen'),
  );
  // A person's Esc is usually taken by Chromium itself to leave fullscreen; Playwright's key
  // reaches the page, so this checks the player's own Esc (the shortcut table's exitFullscreen).
  await page.keyboard.press('Escape');
  await expect.poll(() => fullscreenOf(page)).toBe(null);
  await expect(player).not.toHaveClass(/is-fullscreen/);
  await page.keyboard.press('f');
  await expect.poll(() => fullscreenOf(page)).toBe('player-main');
  await page.keyboard.press('f');
  await expect.poll(() => fullscreenOf(page)).toBe(null);
  await page.locator('[data-fullscreen-button]').click();
  await expect.poll(() => fullscreenOf(page)).toBe('player-main');
  await page.locator('[data-fullscreen-button]').click();
  await expect.poll(() => fullscreenOf(page)).toBe(null);

  // Web fullscreen: the player fills the window without the browser's fullscreen.
  const button = page.locator('[data-web-fullscreen-button]');
  await button.click();
  await expect(player).toHaveClass(/is-web-fullscreen/);
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('html')).toHaveAttribute('data-web-fullscreen', '');
  const viewport = page.viewportSize()!;
  await expect
    .poll(async () => {
      const b = (await page.locator('.player-main').boundingBox())!;
      return [b.x, b.y, b.width, b.height].map(Math.round);
    })
    .toEqual([0, 0, viewport.width, viewport.height]);
  expect(await fullscreenOf(page)).toBe(null);
  await button.click();
  await expect(player).not.toHaveClass(/is-web-fullscreen/);
  await expect(page.locator('html')).not.toHaveAttribute('data-web-fullscreen', '');
});

// Headless Chromium does real picture-in-picture (document.pictureInPictureElement is the video);
// a refusal is then simulated to check that the page says so.
test('the picture-in-picture button moves the video into its own window and back', async ({ page }) => {
  await openVideo(page, { loggedIn: false });
  const button = page.getByRole('button', { name: msg('en', 'player.pip') });
  await button.click();
  await expect.poll(() => page.evaluate(() => document.pictureInPictureElement?.tagName ?? null)).toBe('VIDEO');
  await expect(button).toHaveAttribute('aria-pressed', 'true');
  await button.click();
  await expect.poll(() => page.evaluate(() => document.pictureInPictureElement?.tagName ?? null)).toBe(null);
  await expect(button).toHaveAttribute('aria-pressed', 'false');

  // A browser that refuses (a policy, no user gesture, an unsupported source) says so in a toast.
  await videoEl(page).evaluate((v: HTMLVideoElement) => {
    v.requestPictureInPicture = () => Promise.reject(new DOMException('refused', 'NotAllowedError'));
  });
  await button.click();
  await expect(page.locator('.toast', { hasText: msg('en', 'player.pipFailed') })).toBeVisible();
});

test('a screenshot downloads as "<title> (kv<id>) - <time>.png" at the video\'s own resolution', async ({ page }) => {
  await openVideo(page, { loggedIn: false });
  await pauseAt(page, 7.5);
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-screenshot]').click()]);
  expect(download.suggestedFilename()).toBe(`Harbour lights (kv${video.videoId}) - 0-07.png`);
  const native = await videoEl(page).evaluate((v: HTMLVideoElement) => ({
    width: v.videoWidth,
    height: v.videoHeight,
  }));
  expect(native).toEqual({ width: CLIP.width, height: CLIP.height });
  const image = await sharp(readFileSync((await download.path())!)).metadata();
  expect({ format: image.format, width: image.width, height: image.height }).toEqual({ format: 'png', ...native });
});

test.describe('screenshots while a lower rung plays', () => {
  /** A source taller than the lowest rung: the ladder (server/media/hls.ts ladderFor) makes 360p and 720p of it. */
  const HD = { width: 1280, height: 720, seconds: 12 };
  const LOW = { width: 640, height: 360 };
  let hd: PublishedVideo;

  test.beforeAll(async ({ browser }: { browser: Browser }) => {
    test.setTimeout(150_000); // two rungs of a 720p clip through the real pipeline
    const context = await browser.newContext({ baseURL: E2E_BASE_URL });
    const page = await context.newPage();
    await signUpByApi(page, 'Shots');
    hd = await publishVideoByApi(page, {
      title: 'Harbour lights HD',
      seconds: HD.seconds,
      size: `${HD.width}x${HD.height}`,
    });
    // Status ready: every rung is in the master playlist, the top one included.
    await expect
      .poll(
        async () => (await (await page.request.get(`/api/video/media/status?mediaId=${hd.mediaId}`)).json()).status,
        { timeout: 120_000, intervals: [500] },
      )
      .toBe('ready');
    await context.close();
  });

  /**
   * Opens the HD video with the 360p rung picked in the quality menu and pauses at `at` on a 360p
   * frame. The page is opened again after the pick: the remembered rung then applies from the
   * first fragment, so no 720p frame is ever in the buffer.
   */
  async function pauseOnLowRung(page: Page, at: number) {
    const player = page.locator('[data-player]');
    const open = async () => {
      await page.goto(`/en/video/kv${hd.videoId}`);
      await waitForIslands(page);
      await showPlayIntent(page, 'hls.js');
      await expect(player).toHaveAttribute('data-levels', /,/);
      await videoEl(page).evaluate(async (v: HTMLVideoElement) => {
        await v.play().catch(() => {});
        v.pause();
        if (v.currentTime < 1) v.currentTime = 0;
      });
    };
    await open();
    await page.locator('.player-stage').hover({ position: { x: 40, y: 40 } });
    await page.locator('[data-quality-button]').click();
    await page
      .locator('[data-quality-menu]')
      .getByRole('menuitemradio', { name: `${LOW.height}p`, exact: true })
      .click();
    await expect(player).toHaveAttribute('data-quality', String(LOW.height));
    await open();
    await expect(player).toHaveAttribute('data-quality', String(LOW.height));
    await pauseAt(page, at);
    await expect
      .poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight]))
      .toEqual([LOW.width, LOW.height]);
  }

  /** Mean absolute difference per channel (0 to 255) of two images of the same size. */
  const meanDifference = async (a: Buffer, b: Buffer, size: { width: number; height: number }) => {
    const [x, y] = await Promise.all(
      [a, b].map((image) => sharp(image).resize(size.width, size.height).removeAlpha().raw().toBuffer()),
    );
    let sum = 0;
    for (let i = 0; i < x.length; i++) sum += Math.abs(x[i] - y[i]);
    return sum / x.length;
  };
  /** The frame the page's own video shows now, as PNG. */
  const shownFrame = async (page: Page) =>
    Buffer.from(
      (
        await videoEl(page).evaluate((v: HTMLVideoElement) => {
          const canvas = document.createElement('canvas');
          canvas.width = v.videoWidth;
          canvas.height = v.videoHeight;
          canvas.getContext('2d')!.drawImage(v, 0, 0);
          return canvas.toDataURL('image/png');
        })
      ).split(',')[1],
      'base64',
    );

  test("the screenshot is the same frame from the top rung, at the source's resolution, and the button is busy meanwhile", async ({
    page,
  }) => {
    await pauseOnLowRung(page, 7.5);
    // The detached video's requests for the top rung wait until the busy state has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let topRungRequests = 0;
    await page.route(/\/720p\//, async (route) => {
      topRungRequests++;
      await held;
      await route.continue();
    });
    const button = page.locator('[data-screenshot]');
    const downloaded = page.waitForEvent('download');
    await button.click();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    await expect(button).toBeDisabled();
    await expect.poll(() => topRungRequests).toBeGreaterThan(0);
    await page.locator('.player-main').screenshot({ path: `${SHOTS_DIR}/1280-screenshot-busy.png` });
    release();
    const download = await downloaded;
    await expect(button).toHaveAttribute('aria-busy', 'false');
    await expect(button).toBeEnabled();

    expect(download.suggestedFilename()).toBe(`Harbour lights HD (kv${hd.videoId}) - 0-07.png`);
    const shot = readFileSync((await download.path())!);
    const image = await sharp(shot).metadata();
    expect({ format: image.format, width: image.width, height: image.height }).toEqual({
      format: 'png',
      width: HD.width,
      height: HD.height,
    });
    // The page's video still plays the low rung: the full size came from the top rung.
    expect(await videoEl(page).evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([
      LOW.width,
      LOW.height,
    ]);
    await expect(page.locator('.toast', { hasText: msg('en', 'player.screenshotReduced') })).toHaveCount(0);

    // The same frame: scaled down, it is closer to the 360p frame on screen than to the frames just
    // before and after it (testsrc2 draws a moving picture and the frame number).
    const frame = 1 / 25;
    const differences: number[] = [];
    for (const at of [7.5 - frame, 7.5, 7.5 + frame]) {
      await pauseAt(page, at);
      differences.push(await meanDifference(shot, await shownFrame(page), LOW));
    }
    expect(differences[1]).toBeLessThan(Math.min(differences[0], differences[2]));
  });

  test('when the top rung cannot be loaded, the frame on screen is still saved and a toast says so', async ({
    page,
  }) => {
    await pauseOnLowRung(page, 5);
    await page.route(/\/720p\//, (route) => route.abort());
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      page.locator('[data-screenshot]').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`Harbour lights HD (kv${hd.videoId}) - 0-05.png`);
    const image = await sharp(readFileSync((await download.path())!)).metadata();
    expect({ width: image.width, height: image.height }).toEqual(LOW);
    const toast = page.locator('.toast', { hasText: msg('en', 'player.screenshotReduced') });
    await expect(toast).toBeVisible();
    await page.screenshot({ path: `${SHOTS_DIR}/1280-screenshot-reduced-toast.png`, animations: 'disabled' });
    await expect(page.locator('[data-screenshot]')).toBeEnabled();
  });

  test('when the top rung does not answer, the frame on screen is saved once the time limit passes', async ({
    page,
  }) => {
    await pauseOnLowRung(page, 9);
    let topRungRequests = 0;
    // Never answered: only the capture's time limit (TOP_RUNG_TIMEOUT_MS) ends the wait.
    await page.route(/\/720p\//, () => {
      topRungRequests++;
    });
    const button = page.locator('[data-screenshot]');
    const downloaded = page.waitForEvent('download', { timeout: 30_000 });
    await button.click();
    await expect(button).toHaveAttribute('aria-busy', 'true');
    const download = await downloaded;
    expect(topRungRequests).toBeGreaterThan(0);
    expect(download.suggestedFilename()).toBe(`Harbour lights HD (kv${hd.videoId}) - 0-09.png`);
    const image = await sharp(readFileSync((await download.path())!)).metadata();
    expect({ width: image.width, height: image.height }).toEqual(LOW);
    await expect(page.locator('.toast', { hasText: msg('en', 'player.screenshotReduced') })).toBeVisible();
    await expect(button).toHaveAttribute('aria-busy', 'false');
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});

/** The member's saved position for the shared video, from the API. */
const savedAnchor = async (page: Page) =>
  (await (await page.request.get(`/api/history/anchor?videoId=${video.videoId}`)).json()).anchor as number | null;

/** Plays from `from` until past `until` (never pausing: a pause writes the position too); returns the position reached. */
async function playPast(page: Page, from: number, until: number) {
  await videoEl(page).evaluate((v: HTMLVideoElement, from) => {
    v.currentTime = from;
    void v.play();
  }, from);
  await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(until);
  return videoTime(page);
}

test('the position is written on pagehide while playing and playback resumes there', async ({ page }) => {
  test.setTimeout(60_000);
  await openVideo(page);
  expect(await savedAnchor(page)).toBe(null);
  // The periodic write comes only every 10 s, so a saved position at or past the one read just
  // before pagehide was written by it. The event is the one the browser sends on leaving (the
  // next test leaves for real).
  await playPast(page, 9, 10);
  // The time is read in the same task that sends the event: on a busy machine the page may play
  // on for seconds between two calls from the test.
  const leftAt = await videoEl(page).evaluate((v: HTMLVideoElement) => {
    const at = v.currentTime;
    window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: false }));
    return at;
  });
  await expect.poll(() => savedAnchor(page)).toBeGreaterThanOrEqual(Math.floor(leftAt * 10) / 10);
  expect((await savedAnchor(page))!).toBeLessThan(leftAt + 2);
  // Paused, the position is written once more and stays: leaving (reopening below) then has
  // nothing newer to write, so the page must resume at exactly this anchor.
  const pausedAt = await videoEl(page).evaluate((v: HTMLVideoElement) => {
    v.pause();
    return v.currentTime;
  });
  await expect.poll(() => savedAnchor(page)).toBe(Math.floor(pausedAt * 10) / 10);
  const anchor = (await savedAnchor(page))!;

  // Reopening resumes there (and says so). The clock is read after openVideo's own play and pause,
  // so it may have run on a little from the anchor on a busy machine, never gone back before it.
  await openVideo(page);
  await expect.poll(() => videoTime(page)).toBeGreaterThanOrEqual(anchor - 0.05);
  expect(await videoTime(page)).toBeLessThan(anchor + 2);
  await expect(
    page.locator('.toast', { hasText: msg('en', 'player.resumed').replace('{{time}}', '0:1') }),
  ).toBeVisible();
});

// Leaving for real: a link, and closing the tab. The page is controlled by the site's service
// worker, and a keepalive request left to the page's own loader died with the page; the worker
// now sends such requests itself (src/sw/service-worker.ts).
test('the position is written when the member leaves through a link or closes the tab', async ({ page, browser }) => {
  test.setTimeout(60_000);
  await openVideo(page);
  const leftAt = await playPast(page, 9, 10);
  await page.locator('a[href="/en/"]').first().click();
  await page.waitForURL((url) => url.pathname === '/en/');
  await expect.poll(() => savedAnchor(page)).toBeGreaterThanOrEqual(Math.floor(leftAt * 10) / 10);

  const other = await browser.newPage({ baseURL: E2E_BASE_URL });
  await openVideo(other);
  // A new browser: the site's worker, which sends the last write for a closing tab, takes the page
  // over once installed (seconds on a busy machine); a tab closed before that keeps the last
  // periodic write only.
  await other.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
  const closedAt = await playPast(other, 14, 14.5);
  await other.close({ runBeforeUnload: true });
  await expect.poll(() => savedAnchor(page)).toBeGreaterThanOrEqual(Math.floor(closedAt * 10) / 10);
});

test("frame stepping moves by one frame of the stream (25 fps), from the manifest's FRAME-RATE", async ({ page }) => {
  await openVideo(page, { loggedIn: false });
  const master = await (await page.request.get(`/media/videos/${video.videoId}/master.m3u8`)).text();
  expect(master).toMatch(/FRAME-RATE=25\.000/);
  await pauseAt(page, 4);
  // The frame shown is read from requestVideoFrameCallback (the compositor's frame), not from currentTime.
  const presented = () => page.evaluate(() => (window as unknown as { presented?: number }).presented ?? null);
  await videoEl(page).evaluate((v: HTMLVideoElement) => {
    const watch = () =>
      v.requestVideoFrameCallback((_now, meta) => {
        (window as unknown as { presented: number }).presented = meta.mediaTime;
        watch();
      });
    watch();
  });
  const frame = 1 / CLIP_FPS;
  const steps: Array<{ time: number; shown: number | null }> = [];
  const stepAndRead = async (key: string) => {
    const before = await videoTime(page);
    await page.keyboard.press(key);
    await expect.poll(() => videoTime(page)).not.toBe(before);
    await expect
      .poll(() => videoEl(page).evaluate((v: HTMLVideoElement) => !v.seeking && v.readyState >= 2))
      .toBe(true);
    steps.push({ time: await videoTime(page), shown: null });
  };
  await stepAndRead('.');
  for (let i = 0; i < 3; i++) await stepAndRead('.');
  await stepAndRead(',');
  for (let i = 1; i < 4; i++) expect(steps[i].time - steps[i - 1].time).toBeCloseTo(frame, 3);
  expect(steps[4].time - steps[3].time).toBeCloseTo(-frame, 3);
  await expect.poll(presented).not.toBe(null);
  // The frame on screen is the one stepped to: its media time is within that frame.
  const shown = (await presented())!;
  expect(Math.abs(shown - steps[4].time)).toBeLessThan(frame);
  // The buttons step as the keys do (shown when the viewer turns them on).
  await page.locator('[data-settings-button]').click();
  await page.locator('[data-toggle="showFrameByFrame"]').check();
  const fromButton = await videoTime(page);
  await page.getByRole('button', { name: msg('en', 'player.nextFrame') }).click();
  await expect.poll(async () => (await videoTime(page)) - fromButton).toBeCloseTo(frame, 3);
});

test('screenshots of the controls at 1280 and 375 px: storyboard hover and statistics', async ({ page }) => {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 812 });
    await openVideo(page, { loggedIn: false });
    await pauseAt(page, 6);
    const box = (await page.locator('[data-seek-bar]').boundingBox())!;
    for (const [name, fraction] of [
      ['start', 0.02],
      ['middle', 0.5],
      ['end', 0.98],
    ] as const) {
      await page.mouse.move(box.x + box.width * fraction, box.y + box.height / 2);
      await expect(page.locator('[data-seek-preview] .seek-frame')).toBeVisible();
      await page.locator('.player-main').screenshot({ path: `${SHOTS_DIR}/${width}-storyboard-${name}.png` });
    }
    await page.locator('[data-settings-button]').click();
    await page.locator('[data-open-stats]').click();
    await expect(page.locator('[data-player-stats]')).toContainText(`${CLIP.width} × ${CLIP.height}`);
    // Danmaku on stage / waiting / dropped.
    await expect(page.locator('[data-player-stats]')).toContainText(msg('en', 'player.stats.danmaku'));
    await expect(page.locator('[data-player-stats] dd').last()).toHaveText(/^\d+ \/ \d+ \/ \d+$/);
    await page.locator('.player-main').screenshot({ path: `${SHOTS_DIR}/${width}-stats.png` });
    // The density control heads the danmaku settings.
    await page.locator('[data-danmaku-settings-button]').click();
    await expect(page.locator('.danmaku-settings legend').first()).toHaveText(msg('en', 'player.density'));
    await page.locator('.player-main').screenshot({ path: `${SHOTS_DIR}/${width}-danmaku-settings.png` });
    await page.locator('[data-danmaku-settings-button]').click();
  }
});
