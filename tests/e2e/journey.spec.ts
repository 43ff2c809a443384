/**
 * The newcomer's journey, end to end, once at 1280 and once at 375 px, in one browser context
 * each (the administrator reviews from a second one): the first-run page is closed on a site
 * that has its administrator; register through the dialog (it fits the window and scrolls, its
 * × is a 44 px target) with a mailed code and an invitation code; upload a video of two parts
 * with a tag created by Enter and a cropped cover; the administrator rejects another upload
 * with a reason (the review page stays within the phone's width) and approves this one; the
 * uploader reads the reason in My videos and under their rejected photo post (not covered by
 * its caption), and the edit form holds a typed tag back; Categories shows rows at once; watch,
 * resume on P2 after a reload with one press of Play; the danmaku style popover opens and
 * closes on Esc; the audio page; the photos page with the viewer turned by the arrow keys
 * without focusing it; on a phone, every section from the bottom bar; offline, the member is
 * still shown. Any page error or console error fails it, but for the answers a step names as
 * expected (the first-run page's 404, requests refused while offline).
 * SHOTS=<dir> saves screenshots; JOURNEY_TIMES=1 prints each step's time.
 */
import { test, expect, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  E2E_BASE_URL,
  adminRequest,
  invitationCodes,
  logInAsAdmin,
  mailedCode,
  makeClip,
  makePicture,
  msg,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  shoot,
  waitForIslands,
  waitForShell,
} from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-journey-'));
const PASSWORD = 'a newcomer finds their way';

/** Page errors and console errors of every page of a context, but for the patterns a step allows while it runs. */
function watchErrors(context: BrowserContext) {
  const errors: string[] = [];
  let allowed: RegExp[] = [];
  const watch = (page: Page) => {
    page.on('pageerror', (error) => errors.push(`pageerror at ${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const line = `console.error at ${page.url()}: ${message.text()} (${message.location().url})`;
      if (!allowed.some((pattern) => pattern.test(line))) errors.push(line);
    });
  };
  context.pages().forEach(watch);
  context.on('page', watch);
  return {
    errors,
    /** Runs `step` with these console errors expected (the browser's own lines for answers the page handles). */
    async allowing<T>(patterns: RegExp[], step: () => Promise<T>): Promise<T> {
      allowed = patterns;
      try {
        return await step();
      } finally {
        allowed = [];
      }
    },
  };
}

/** An invitation code of the e2e server nobody has used yet. */
async function freeInvitationCode(page: Page): Promise<string> {
  for (const code of invitationCodes().reverse()) {
    const answer = await (
      await page.request.post(`${E2E_BASE_URL}/api/user/checkInvitationCode`, { data: { invitationCode: code } })
    ).json();
    if (answer.isAvailableInvitationCode) return code;
  }
  throw new Error('no invitation code left');
}

const video = (page: Page) => page.locator('video[data-video]');
const playback = (page: Page) =>
  video(page).evaluate((v: HTMLVideoElement) => ({ time: v.currentTime, paused: v.paused }));
const savedAnchor = async (page: Page, videoId: number) =>
  (await (await page.request.get(`${E2E_BASE_URL}/api/history/anchor?videoId=${videoId}`)).json()).anchor as
    | number
    | null;
/** How far the page is wider than the window (0: no sideways scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

for (const width of [1280, 375]) {
  const phone = width === 375;
  test(`a newcomer's journey at ${width} px`, async ({ browser }) => {
    test.setTimeout(480_000);
    const viewport = { width, height: 800 };
    const address = `10.${randomBytes(3).join('.')}`;
    const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'X-Forwarded-For': address } });
    const watcher = watchErrors(context);
    const page = await context.newPage();
    const times: Array<[string, number]> = [];
    const step = async (name: string, body: () => Promise<void>) => {
      const started = Date.now();
      await test.step(name, body);
      times.push([name, Date.now() - started]);
    };
    const tag = randomBytes(3).toString('hex');
    const nickname = `Newcomer ${tag}`;
    const email = `journey-${tag}@members.kiraboshi.test`;

    await step('the first-run page is closed once an administrator exists', async () => {
      // The page's own 404 is reported by the browser: expected.
      const response = await watcher.allowing([/status of 404 .*\/first-run\)$/], () => page.goto('/en/first-run'));
      expect(response?.status()).toBe(404);
      await expect(page.locator('.error-page .error-code')).toHaveText('404');
      expect((await page.request.get(`${E2E_BASE_URL}/api/firstRun`)).status()).toBe(404);
    });

    await step('register through the dialog, which fits the window and scrolls', async () => {
      await page.goto('/en/');
      await waitForIslands(page);
      await page.locator('[data-auth-button]').click();
      const dialog = page.locator('dialog.auth-dialog');
      await dialog.getByRole('button', { name: 'Sign up' }).click();
      await expect(dialog.getByRole('heading')).toHaveText(msg('en', 'auth.registerTitle'));
      // The × is a 44 px target, and the dialog stays inside the window, scrolling what does not fit.
      const close = (await dialog.locator('.auth-close-form button').boundingBox())!;
      expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(44);
      const box = (await dialog.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
      if (await dialog.evaluate((el) => el.scrollHeight > el.clientHeight)) {
        await dialog.locator('.auth-switch').scrollIntoViewIfNeeded();
        await expect(dialog.locator('.auth-switch')).toBeInViewport();
        await dialog.evaluate((el) => el.scrollTo(0, 0));
      }
      await shoot(page, 'journey-register');
      await dialog.locator('input[name=email]').fill(email);
      await dialog.getByRole('button', { name: msg('en', 'auth.sendCode') }).click();
      await expect(dialog.getByRole('status')).toHaveText(msg('en', 'auth.codeSent').replace('{{email}}', email));
      await dialog.locator('input[name=verificationCode]').fill(await mailedCode(email));
      await dialog.locator('input[name=username]').fill(`j${tag}`);
      await dialog.locator('input[name=userNickname]').fill(nickname);
      await dialog.locator('input[name=password]').fill(PASSWORD);
      await dialog.locator('input[name=invitationCode]').fill(await freeInvitationCode(page));
      await dialog.locator('button[type=submit]').click();
      await expect(dialog).toBeHidden();
      await expect(page.locator('[data-auth-button] [data-auth-label]')).toHaveText(nickname);
    });

    // Meanwhile, through the API as the same member: the upload the reviewer will refuse, a track,
    // a photo post of two images and one the reviewer will refuse (one after the other: a member
    // has at most three unfinished uploads, and the form's two parts are two of them).
    const others = (async () => {
      const refused = await publishVideoByApi(page, {
        title: `A video with a borrowed cover ${tag}`,
        seconds: 3,
        size: '320x240',
        approve: false,
      });
      const track = await publishAudioByApi(page, { title: `A tone for the journey ${tag}`, seconds: 6 });
      const photos = await publishPhotoByApi(page, {
        title: `Two colours ${tag}`,
        images: [
          { width: 900, height: 600, colour: '#e0457b', alt: 'A pink field' },
          { width: 600, height: 900, colour: '#3a7bd5', alt: 'A blue field' },
        ],
      });
      const refusedPhotos = await publishPhotoByApi(page, { title: `Scans of an artbook ${tag}`, approve: false });
      const rejected = await (await adminRequest()).post('/api/photo/pending/rejected', {
        data: {
          photoId: refusedPhotos.photoId,
          reason: 'COPYRIGHT',
          note: 'Scans of a printed artbook need the publisher’s permission; please upload your own pictures.',
        },
      });
      expect(rejected.ok()).toBe(true);
      return { refused, track, photos, refusedPhotos };
    })();
    others.catch(() => undefined); // awaited below; a failure is reported there

    let videoId = 0;
    const newTag = `journey${tag}`;
    const title = `My first two-part video ${tag}`;
    await step('upload a video of two parts with a tag made by Enter and a cropped cover', async () => {
      const p1 = join(dir, `p1-${width}.mp4`);
      const p2 = join(dir, `p2-${width}.mp4`);
      writeFileSync(p1, await makeClip(3, '320x240'));
      // P2 is long enough to leave it past its first seconds, where a position is not resumed
      // (RESUME_MARGIN_SECONDS), and before its last ones.
      writeFileSync(p2, await makeClip(12, '320x180'));
      const picture = await makePicture(dir);
      await page.goto('/en/upload');
      await waitForIslands(page);
      await page.locator('input[name="video"]').setInputFiles(p1);
      await expect(page.locator('[data-check="ok"]')).toBeVisible({ timeout: 60_000 }); // the file's check (a wasm) is slow on a busy machine
      await page.locator('[data-start]').click();
      await page.locator('input[name="videoPartFile"]').setInputFiles(p2);
      const rows = page.locator('[data-part-upload]');
      await expect(rows).toHaveCount(2);
      await rows.nth(0).locator('input[name="videoPartTitle"]').fill('Part one');
      await rows.nth(1).locator('input[name="videoPartTitle"]').fill('Part two: green fields');

      const form = page.locator('[data-upload-form]');
      await form.locator('input[name="title"]').fill(title);
      // Categories opens on the first category: this video will be among its rows.
      await form.locator('select[name="videoCategory"]').selectOption('anime');
      await form.locator('input[name="ensureOriginal"]').check();
      const tagInput = form.locator('input[name="tagSearch"]');
      await tagInput.fill(newTag);
      await tagInput.press('Enter');
      await expect(form.locator('[data-picked-tags]')).toContainText(newTag);
      await expect(tagInput).toHaveValue('');

      await page.locator('input[name="cover"]').setInputFiles(picture);
      await expect(page.locator('[data-cropper]')).toBeVisible();
      await page.locator('[data-cropper] .error-actions .button').first().click();
      // The server re-encodes the cover: slow on a busy machine.
      await expect(page.locator('[data-cover-preview="cover"]')).toBeVisible({ timeout: 90_000 });
      for (const row of await rows.all())
        await expect(row.locator('[data-upload-state]')).toHaveAttribute('data-upload-state', 'success', {
          timeout: 30_000,
        });
      await shoot(page, 'journey-upload');
      await form.locator('[data-submit]').click();
      const link = page.locator('[data-video-link]');
      await expect(link).toBeVisible({ timeout: 60_000 });
      videoId = Number(/kv(\d+)$/.exec((await link.getAttribute('href'))!)![1]);
      const { video: sent } = await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json();
      expect(sent.title).toBe(title);
      expect(sent.image).toMatch(/^\/media\/images\/covers\//);
      expect(JSON.stringify(sent.videoTagList)).toContain(newTag);
      expect(sent.videoPart.map((part: { videoPartTitle: string }) => part.videoPartTitle)).toEqual([
        'Part one',
        'Part two: green fields',
      ]);
    });

    const { refused, track, photos, refusedPhotos } = await others;

    await step('the administrator rejects one upload with a reason and approves the other', async () => {
      const adminContext = await browser.newContext({ viewport });
      const adminWatcher = watchErrors(adminContext);
      const admin = await adminContext.newPage();
      await logInAsAdmin(admin);
      await admin.goto('/en/settings/content');
      await waitForIslands(admin);
      const queued = admin.locator(`[data-video-review] [data-video-id="${refused.videoId}"]`);
      await queued.locator('[data-reject]').click();
      const form = queued.locator('[data-reject-form]');
      await form.locator('[data-reject-reason]').selectOption('MISLEADING');
      await form.locator('[data-reject-note]').fill('The cover is from another series. Use a frame of your own video.');
      // The open form keeps the page within the window (it was 7 px too wide on a phone).
      expect(await overflow(admin)).toBeLessThanOrEqual(0);
      await shoot(admin, 'journey-review');
      await form.locator('[data-reject-confirm]').click();
      await expect(queued).toHaveCount(0);
      const mine = admin.locator(`[data-video-review] [data-video-id="${videoId}"]`);
      await mine.locator('[data-approve]').click();
      await expect(mine).toHaveCount(0);
      expect(adminWatcher.errors).toEqual([]);
      await adminContext.close();
    });

    await step('the uploader reads the reasons, and the edit form holds a typed tag back', async () => {
      await page.goto('/en/settings/my-videos');
      await waitForIslands(page);
      const rejectedItem = page.locator(`[data-my-videos] [data-video-id="${refused.videoId}"]`);
      await expect(rejectedItem.locator('[data-state-badge]')).toHaveText(msg('en', 'myVideos.state.rejected'));
      await expect(rejectedItem.locator('[data-rejection-reason]')).toContainText(
        msg('en', 'rejection.reasons.MISLEADING'),
      );
      await expect(rejectedItem.locator('[data-rejection-note]')).toContainText('The cover is from another series.');

      const item = page.locator(`[data-my-videos] [data-video-id="${videoId}"]`);
      await expect(item.locator('[data-state-badge]')).toHaveText(msg('en', 'myVideos.state.approved'));
      await item.locator('[data-edit]').click();
      const editor = item.locator('[data-video-editor]');
      const tagInput = editor.locator('input[name="tagSearch"]');
      await tagInput.fill('not added yet');
      await editor.locator('[data-save]').click();
      await expect(editor.locator('[data-pending-work]')).toHaveText(
        msg('en', 'upload.tagNotAdded').replace('{{name}}', 'not added yet'),
      );
      await expect(tagInput).toBeFocused();
      await expect(item.locator('[data-state-badge]')).toHaveText(msg('en', 'myVideos.state.approved'));
      // The subtitles panel under the editor speaks the page's language (it showed its keys: the island had no 'subtitles' messages).
      await expect(item.locator('[data-subtitle-panel] h3')).toHaveText(msg('en', 'subtitles.panelTitle'));
      await shoot(page, 'journey-my-videos');

      // The rejected photo post on their Photos tab: the reason is not under the caption.
      const { uid } = await (await page.request.post(`${E2E_BASE_URL}/api/user/self`))
        .json()
        .then((body) => body.result as { uid: number });
      await page.goto(`/en/user/${uid}/photos`);
      const tile = page.locator(`[data-photo-id="${refusedPhotos.photoId}"]`);
      await expect(tile).toHaveAttribute('data-status', 'rejected');
      const reason = tile.locator('[data-rejection-reason]');
      await expect(reason).toContainText(msg('en', 'rejection.reasons.COPYRIGHT'));
      // Read in one task, again until it holds: a web font that arrives late wraps the text anew.
      const overlap = () =>
        reason.evaluate((el) => {
          const range = document.createRange();
          range.selectNodeContents(el);
          const text = range.getBoundingClientRect();
          const caption = el.closest('.photo-tile')!.querySelector('.photo-tile-caption')!.getBoundingClientRect();
          return Math.max(0, text.bottom - caption.top - 1);
        });
      await expect.poll(overlap, { message: 'the reason ends above the caption' }).toBe(0);
      expect(await reason.evaluate((el) => el.scrollHeight <= el.clientHeight + 1), 'the reason is not cut').toBe(true);
      await shoot(page, 'journey-photos-tab');
    });

    await step('Categories shows rows at once', async () => {
      await page.goto('/en/category');
      await waitForIslands(page);
      await expect(page.locator('[data-list="category"]')).toBeVisible();
      await expect(page.locator('[data-list="category"] a[href*="/video/kv"]').first()).toBeVisible();
    });

    await step('watch, and resume on P2 after a reload with one press of Play', async () => {
      // The approved video is played once its parts have their renditions.
      let p1Seconds = 0;
      await expect
        .poll(
          async () => {
            const parts = (await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json()).video
              .videoPart as Array<{ link: string | null; duration: number }>;
            p1Seconds = parts[0].duration / 1000;
            return parts.every((p) => p.link);
          },
          { timeout: 90_000, intervals: [500] },
        )
        .toBe(true);
      // By now the member has opened a dozen pages, each with the bell's event stream: the
      // position is still written (the service worker kept every stream open, and the browser's
      // six connections to the site ran out; see tests/e2e/event-streams.spec.ts).
      await page.goto(`/en/video/kv${videoId}?p=2`);
      await waitForIslands(page);
      await expect(page.locator('body')).toContainText(newTag);
      // The page itself pauses past 4 s (a pause writes the position): a poll from here could
      // overshoot to the end of the part on a busy machine, where nothing is resumed.
      await video(page).evaluate((v: HTMLVideoElement & { leftAt?: Promise<number> }) => {
        v.leftAt = new Promise<number>((resolve) => {
          const check = () => {
            if (v.currentTime <= 4) return;
            v.removeEventListener('timeupdate', check);
            v.pause();
            resolve(v.currentTime);
          };
          v.addEventListener('timeupdate', check);
        });
      });
      await page.locator('[data-play-button]').click();
      const left = await video(page).evaluate((v: HTMLVideoElement & { leftAt?: Promise<number> }) => v.leftAt!);
      await expect.poll(() => savedAnchor(page, videoId), { timeout: 15_000 }).toBeCloseTo(p1Seconds + left, 0);

      await page.reload();
      await waitForIslands(page);
      // Where playback starts after one press: at the position left, not from the start (the
      // event is handled a moment after playing began: on a busy machine, up to a second later).
      await video(page).evaluate((v: HTMLVideoElement) =>
        v.addEventListener(
          'playing',
          () => {
            v.dataset.firstPlaying = String(v.currentTime);
          },
          { once: true },
        ),
      );
      await page.locator('[data-play-button]').click();
      await expect(video(page)).toHaveAttribute('data-first-playing', /\d/, { timeout: 60_000 });
      expect(Number(await video(page).getAttribute('data-first-playing'))).toBeGreaterThan(left - 0.5);
      await expect.poll(async () => (await playback(page)).time, { timeout: 60_000 }).toBeGreaterThan(left + 0.5);
      expect((await playback(page)).paused).toBe(false);
      await video(page).evaluate((v: HTMLVideoElement) => v.pause());
      await shoot(page, 'journey-resumed');
    });

    await step('the danmaku style popover opens and closes on Esc', async () => {
      const button = page.locator('[data-danmaku-style-button]');
      await button.click();
      await expect(page.locator('[data-danmaku-style]')).toBeVisible();
      await shoot(page, 'journey-danmaku-style');
      await page.keyboard.press('Escape');
      await expect(page.locator('[data-danmaku-style]')).toHaveCount(0);
      await expect(button).toBeFocused();
    });

    await step('the audio page', async () => {
      await page.goto('/en/audio');
      await waitForIslands(page);
      await expect(page.locator(`a[href$="/audio/ka${track.audioId}"]`).first()).toBeVisible();
      await page.goto(`/en/audio/ka${track.audioId}`);
      await waitForIslands(page);
      await expect(page.locator('h1')).toContainText(`A tone for the journey ${tag}`);
      await expect(page.locator('[data-danmaku-input]')).toBeVisible();
    });

    await step('the photos page, and the viewer turned by the arrow keys without focusing it', async () => {
      await page.goto('/en/photo');
      await waitForIslands(page);
      const tile = page.locator(`[data-photo-id="${photos.photoId}"] a`);
      await tile.click();
      await expect(page).toHaveURL(new RegExp(`/en/photo/kp${photos.photoId}`));
      await waitForIslands(page);
      const viewer = page.locator('[data-photo-viewer]');
      await expect(viewer).toHaveAttribute('data-index', '0');
      await page.keyboard.press('ArrowRight');
      await expect(viewer).toHaveAttribute('data-index', '1');
      await expect(page.locator('[data-alt-text]')).toHaveText('A blue field');
      await page.keyboard.press('ArrowLeft');
      await expect(viewer).toHaveAttribute('data-index', '0');
    });

    if (phone) {
      await step('on a phone, the bottom bar reaches every section', async () => {
        await page.goto('/en/');
        await waitForIslands(page);
        const bar = page.locator('nav.bottom-nav');
        const direct = await bar
          .locator(':scope > a.bottom-item')
          .evaluateAll((links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
        for (const path of direct) {
          await page.locator(`nav.bottom-nav > a.bottom-item[href="${path}"]`).click();
          await expect(page).toHaveURL(new RegExp(`${path.replace(/\/$/, '')}/?(\\?.*)?$`));
          await waitForShell(page);
        }
        for (const [key, path] of [
          ['nav.audio', '/en/audio'],
          ['nav.photo', '/en/photo'],
          ['nav.collections', '/en/collections'],
          ['nav.settings', '/en/settings'],
        ] as const) {
          await page.locator('[data-bottom-more] summary').click();
          await page
            .locator('.bottom-sheet')
            .getByRole('link', { name: msg('en', key) })
            .click();
          await expect(page).toHaveURL(new RegExp(`${path}(/[a-z-]+)?$`));
          await waitForShell(page);
        }
      });
    }

    await step('offline, the member is still shown', async () => {
      await page.goto('/en/');
      await waitForShell(page);
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
      await expect
        .poll(
          () =>
            page.evaluate(
              async () => !!(await (await caches.open('kiraboshi-pages')).match(new URL('/en/', location.origin).href)),
            ),
          { timeout: 15_000 },
        )
        .toBe(true);
      await watcher.allowing([/ERR_INTERNET_DISCONNECTED|Failed to load resource: net::|Failed to fetch/], async () => {
        await context.setOffline(true);
        await page.reload();
        await waitForShell(page);
        const account = page.locator('[data-auth-button]');
        await expect(account).toHaveAttribute('data-logged-in', '');
        await expect(account.locator('[data-auth-label]')).toHaveText(nickname);
        await shoot(page, 'journey-offline');
        await context.setOffline(false);
      });
    });

    if (process.env.JOURNEY_TIMES)
      console.log(
        `journey at ${width}: ${times.map(([name, ms]) => `${name}: ${(ms / 1000).toFixed(1)} s`).join('; ')}`,
      );
    expect(watcher.errors).toEqual([]);
    await context.close();
  });
}
