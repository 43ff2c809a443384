/**
 * A video of two parts, as a member makes one: two files through the real upload form (each
 * its own tus upload), titled and reordered, published once both are checked; on the video page
 * the part list switches media in place, the address keeps the part (?p=2), a reload and a
 * shared link open that part, and back goes to the part before. SHOTS=<dir> saves screenshots.
 */
import { expect, test, type Page, type Request } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import {
  E2E_BASE_URL,
  adminRequest,
  makeClip,
  msg,
  shoot,
  showPlayIntent,
  signUpByApi,
  waitForIslands,
} from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-parts-e2e-'));

/** Plays the video from the start until a frame is shown; answers the frame's width (which part plays). */
async function playedWidth(page: Page): Promise<number> {
  const video = page.locator('[data-video]');
  await showPlayIntent(page);
  await page.locator('[data-play-button]').click();
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 })
    .toBeGreaterThan(0.3);
  return video.evaluate((v: HTMLVideoElement) => {
    v.pause();
    return v.videoWidth;
  });
}

test('two parts through the upload form, titled and reordered; the video page switches and keeps the part in the address', async ({
  page,
}) => {
  test.setTimeout(200_000);
  const wide = join(dir, 'opening.mp4');
  const small = join(dir, 'ending.mp4');
  writeFileSync(wide, await makeClip(4, '640x360'));
  writeFileSync(small, await makeClip(5, '320x240'));
  await signUpByApi(page, '分P投稿者');
  await page.goto('/upload');
  await waitForIslands(page);

  // The first file as before, then a second one added as P2.
  await page.locator('input[name="video"]').setInputFiles(wide);
  await expect(page.locator('[data-check="ok"]')).toBeVisible({ timeout: 15_000 });
  await page.locator('[data-start]').click();
  await page.locator('input[name="videoPartFile"]').setInputFiles(small);
  const rows = page.locator('[data-part-upload]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0).locator('input[name="videoPartTitle"]')).toHaveValue('opening');
  await expect(rows.nth(1).locator('input[name="videoPartTitle"]')).toHaveValue('ending');
  for (const row of await rows.all())
    await expect(row.locator('[data-upload-state]')).toHaveAttribute('data-upload-state', 'success', {
      timeout: 30_000,
    });

  // Titles, then the second file first: the rows follow, P-numbers are positions.
  await rows.nth(0).locator('input[name="videoPartTitle"]').fill('正片');
  await rows.nth(1).locator('input[name="videoPartTitle"]').fill('预告');
  await rows
    .nth(1)
    .getByRole('button', { name: msg('zhs', 'parts.moveUp').replace('{{n}}', '2') })
    .click();
  await expect(rows.nth(0).locator('input[name="videoPartTitle"]')).toHaveValue('预告');
  await expect(rows.nth(1).locator('input[name="videoPartTitle"]')).toHaveValue('正片');
  // Focus stays with the moved part, now first (its "up" is disabled): on its "down".
  await expect(rows.nth(0).locator('[data-part-down]')).toBeFocused();

  const form = page.locator('[data-upload-form]');
  const title = `两集 ${randomBytes(3).toString('hex')}`;
  await form.locator('input[name="title"]').fill(title);
  await form.locator('select[name="videoCategory"]').selectOption('anime');
  await form.locator('input[name="ensureOriginal"]').check();
  await shoot(page, 'upload-parts');
  await form.locator('[data-submit]').click();
  const link = page.locator('[data-video-link]');
  await expect(link).toBeVisible({ timeout: 60_000 });
  const videoId = Number(/kv(\d+)$/.exec((await link.getAttribute('href'))!)![1]);

  // Stored in the order chosen, with the titles; both playable once approved.
  const admin = await adminRequest();
  expect((await admin.post('/api/video/pending/approved', { data: { videoId } })).status()).toBe(200);
  let parts: Array<{ videoPartTitle: string; link: string | null }> = [];
  await expect
    .poll(
      async () => {
        parts = (await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json()).video.videoPart;
        return parts.every((p) => p.link);
      },
      { timeout: 90_000, intervals: [500] },
    )
    .toBe(true);
  expect(parts.map((p) => p.videoPartTitle)).toEqual(['预告', '正片']);

  // The video page: P1 (the small file) plays; P2 switches in place and the address says so.
  const requested: string[] = [];
  page.on(
    'request',
    (r) =>
      r.url().includes('/media/hls/') && r.url().endsWith('master.m3u8') && requested.push(new URL(r.url()).pathname),
  );
  await page.goto(`/video/kv${videoId}`);
  await waitForIslands(page);
  const list = page.locator('.player-parts');
  await expect(list.locator('[data-part-link]')).toHaveText([/P1\s*预告/, /P2\s*正片/]);
  await expect(list.locator('[data-part-link="1"]')).toHaveAttribute('aria-current', 'true');
  expect(await playedWidth(page)).toBe(320);
  await shoot(page, 'video-parts');

  await list.locator('[data-part-link="2"]').click();
  await expect(page).toHaveURL(new RegExp(`/video/kv${videoId}\\?p=2$`));
  await expect(list.locator('[data-part-link="2"]')).toHaveAttribute('aria-current', 'true');
  expect(await playedWidth(page)).toBe(640);
  expect(requested[0]).toBe(parts[0].link);
  expect(requested.at(-1)).toBe(parts[1].link);

  // A reload (and so a shared link) opens P2; back goes to P1.
  await page.reload();
  await waitForIslands(page);
  await expect(list.locator('[data-part-link="2"]')).toHaveAttribute('aria-current', 'true');
  expect(await playedWidth(page)).toBe(640);
  await list.locator('[data-part-link="1"]').click();
  await expect(page).toHaveURL(/\?p=1$/);
  await page.goBack();
  await expect(page).toHaveURL(/\?p=2$/);
  await expect(list.locator('[data-part-link="2"]')).toHaveAttribute('aria-current', 'true');
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/video/kv${videoId}$`));
  await expect(list.locator('[data-part-link="1"]')).toHaveAttribute('aria-current', 'true');
  expect(await playedWidth(page)).toBe(320);

  // History is kept on the video's timeline: opened without ?p, the page goes to the part last watched.
  // The player on P1 records where it was as it unloads (a keepalive request, which may start
  // after the next page has loaded): it leaves first, and the record below is made only once no
  // record of it has been in flight for half a second; else that record could land after this one.
  const recording = new Set<Request>();
  page.on('request', (r) => void (r.url().endsWith('/api/history/record') && recording.add(r)));
  page.on('requestfinished', (r) => void recording.delete(r));
  page.on('requestfailed', (r) => void recording.delete(r));
  await page.goto('about:blank');
  let quietSince = 0;
  await expect
    .poll(() => {
      if (recording.size > 0) quietSince = 0;
      else quietSince ||= Date.now();
      return quietSince > 0 && Date.now() - quietSince >= 500;
    })
    .toBe(true);
  const p1Seconds =
    (await (await page.request.get(`${E2E_BASE_URL}/api/video?videoId=${videoId}`)).json()).video.videoPart[0]
      .duration / 1000;
  expect(
    (
      await page.request.post(`${E2E_BASE_URL}/api/history/record`, { data: { videoId, anchor: p1Seconds + 1.5 } })
    ).status(),
  ).toBe(200);
  await page.goto(`/video/kv${videoId}`);
  await waitForIslands(page);
  await expect(page).toHaveURL(/\?p=2$/);
  await expect(list.locator('[data-part-link="2"]')).toHaveAttribute('aria-current', 'true');
});
