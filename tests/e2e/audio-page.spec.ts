/**
 * The track page for a quiet recording uploaded by a member without a nickname of their own,
 * who names themself as the artist: the waveform is drawn to the track's own peak (not a flat
 * line), the uploader's name shows once, the danmaku input is the video page's (same look), and
 * the keyboard hint shows on a computer but not on a phone. No console or page error.
 */
import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { E2E, E2E_BASE_URL, adminRequest, msg, shoot, signUpByApi, waitForIslands } from './helpers.ts';

/** A 12 s tone at about -34 dBFS: a quiet recording. */
async function quietTone(): Promise<Buffer> {
  const { binaryPath, run } = await import('../../server/media/ffmpeg.ts');
  const file = join(E2E, 'quiet-tone.flac');
  const made = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=330:beep_factor=4:duration=12',
    '-af',
    'volume=0.02',
    '-c:a',
    'flac',
    file,
  ]);
  if (made.code !== 0) throw new Error(made.stderr);
  return readFileSync(file);
}

async function publishTrack(page: Page, artist: string): Promise<number> {
  const bytes = await quietTone();
  const tus = { 'Tus-Resumable': '1.0.0' };
  const created = await page.request.post(`${E2E_BASE_URL}/api/video/tus`, {
    headers: {
      ...tus,
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': `name ${btoa('quiet.flac')},kind ${btoa('audio')}`,
    },
  });
  const done = await page.request.patch(new URL(created.headers().location, E2E_BASE_URL).toString(), {
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  const mediaId = done.headers()['stream-media-id'];
  await expect
    .poll(
      async () =>
        (await (await page.request.get(`${E2E_BASE_URL}/api/video/media/status?mediaId=${mediaId}`)).json()).status,
      { timeout: 90_000, intervals: [300] },
    )
    .toBe('ready');
  const committed = await page.request.post(`${E2E_BASE_URL}/api/audio/upload`, {
    data: { mediaId, title: 'Quiet night', artist, copyright: 'original', ensureOriginal: true },
  });
  const { audioId } = await committed.json();
  expect((await (await adminRequest()).post('/api/audio/pending/approved', { data: { audioId } })).status()).toBe(200);
  return audioId;
}

/** The share of the waveform canvas's height that its tallest bar covers (drawn pixels of the middle columns). */
const waveHeightShare = (page: Page) =>
  page.locator('[data-waveform]').evaluate((canvas: HTMLCanvasElement) => {
    const ctx = canvas.getContext('2d')!;
    const { width, height } = canvas;
    const data = ctx.getImageData(0, 0, width, height).data;
    let tallest = 0;
    for (let x = Math.floor(width * 0.2); x < width * 0.8; x++) {
      let drawn = 0;
      for (let y = 0; y < height - 6 * (window.devicePixelRatio || 1); y++)
        if (data[(y * width + x) * 4 + 3] > 0) drawn++;
      tallest = Math.max(tallest, drawn);
    }
    return tallest / height;
  });

test("a quiet track by a member named once: full waveform, the video page's danmaku input, keyboard hint only on a computer", async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console.error: ${message.text()}`));
  const member = await signUpByApi(page, 'placeholder');
  // No nickname of their own (the nickname is the username), and the artist is themself.
  expect(
    (
      await page.request.post(`${E2E_BASE_URL}/api/user/update/info`, { data: { userNickname: member.username } })
    ).status(),
  ).toBe(200);
  const audioId = await publishTrack(page, member.username);

  await page.goto(`/en/audio/ka${audioId}`);
  await waitForIslands(page);
  const meta = page.locator('.audio-details .audio-card-meta');
  await expect(meta).toContainText(member.username);
  expect((await meta.innerText()).split(member.username).length - 1).toBe(1);
  await expect(page.locator('[data-audio-artist]')).toHaveCount(0);

  // Peaks of about 0.02 would draw 2 px bars; drawn to the track's peak they fill most of the height.
  await expect.poll(() => waveHeightShare(page)).toBeGreaterThan(0.6);

  // The danmaku input looks as on the video page: the same classes, so the same rounded field.
  const input = page.locator('[data-danmaku-input]');
  await expect(input).toHaveClass(/danmaku-input/);
  await expect(input).toHaveCSS('border-radius', '999px');
  await expect(page.locator('.audio-danmaku-form')).toHaveClass(/danmaku-sender/);
  await expect(page.locator('.audio-shortcuts')).toBeVisible();
  await shoot(page, 'audio-quiet-track');

  // The video player's parts: its danmaku settings panel (loaded when opened, with its own styles)
  // and its stored settings, which the video player reads too.
  await page.locator('[data-danmaku-settings-button]').click();
  const panel = page.locator('[data-danmaku-settings]');
  await expect(panel).toBeVisible();
  await expect(panel).toHaveCSS('display', 'flex');
  await expect(panel.locator('legend').first()).toHaveText('Density');
  // A track has no subtitles: nothing to keep clear of.
  await expect(panel.getByText(msg('en', 'player.keepSubtitlesClear'))).toHaveCount(0);
  await panel.locator('[data-danmaku-speed]').fill('1.5');
  await page.locator('[data-danmaku-toggle]').uncheck();
  await page.locator('[data-loop]').check();
  const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('player-settings') ?? '{}'));
  expect([stored.danmaku.speed, stored.danmaku.enabled, stored.loop]).toEqual([1.5, false, true]);

  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  const phonePage = await phone.newPage();
  phonePage.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  await phonePage.goto(`${E2E_BASE_URL}/en/audio/ka${audioId}`);
  await waitForIslands(phonePage);
  await expect(phonePage.locator('[data-waveform]')).toBeVisible();
  await expect(phonePage.locator('.audio-shortcuts')).toBeHidden();
  await phone.close();
  expect(errors).toEqual([]);
});
