/**
 * Live danmaku between two viewers of one video, each in their own browser context: what A sends
 * flies for B without a reload (at once and framed as new when B is already past its moment; at
 * its moment when B has not reached it yet), A's own danmaku is not shown twice, and both see
 * how many watch. The stage is read from the canvas's `danmakuSnapshot` (src/lib/danmaku/overlay.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { msg, publishVideoByApi, shoot, showPlayIntent, signUpByApi, waitForIslands } from './helpers.ts';

interface SnapshotItem {
  id: number;
  text: string;
  isNew: boolean;
}
interface Snapshot {
  time: number;
  items: SnapshotItem[];
}

const snapshot = (page: Page) =>
  page.locator('[data-danmaku-stage]').evaluate((c) => (c as unknown as { danmakuSnapshot: Snapshot }).danmakuSnapshot);
const onStage = async (page: Page, text: string) => (await snapshot(page)).items.filter((i) => i.text === text);
const videoTime = (page: Page) => page.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.currentTime);

async function openAndPlay(page: Page, videoId: number, at: number) {
  await page.goto(`/en/video/kv${videoId}`);
  await waitForIslands(page);
  await showPlayIntent(page);
  await page.locator('video[data-video]').evaluate((v: HTMLVideoElement, seconds) => {
    v.muted = true;
    v.currentTime = seconds;
  }, at);
  await page.locator('.player-big-play').click();
  // The jump needs its segment fetched and decoded first: seconds on a busy machine.
  await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(at);
}

test('what one viewer sends flies for another without a reload, and both see how many watch', async ({ browser }) => {
  test.setTimeout(120_000); // publishing runs the real ffmpeg pipeline
  const a = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } })).newPage();
  const b = await (await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } })).newPage();
  await signUpByApi(a, 'LiveSender');
  const { videoId } = await publishVideoByApi(a, { title: 'Live danmaku e2e', seconds: 40 });

  // B, a guest, is well into the video; A starts near the beginning.
  await openAndPlay(b, videoId, 12);
  await openAndPlay(a, videoId, 1);
  // What one viewer's stream tells the other crosses the server: seconds on a busy machine.
  const LIVE = { timeout: 15_000 };
  const watching = msg('en', 'player.watching').replace('{{count}}', '2');
  await expect(b.locator('[data-watching]')).toHaveText(watching, LIVE);
  await expect(a.locator('[data-watching]')).toHaveText(watching, LIVE);

  // Behind B's position: it flies for B at once, framed as new.
  await a.locator('[data-danmaku-input]').fill('hello from A');
  await a.locator('[data-danmaku-input]').press('Enter');
  await expect.poll(async () => (await onStage(b, 'hello from A')).map((i) => i.isNew), LIVE).toEqual([true]);
  await shoot(b, 'live-danmaku-new');
  // A sees its own once, never a second copy from the stream.
  await expect.poll(async () => (await onStage(a, 'hello from A')).length).toBe(1);
  await expect(a.locator('.player-bar-count')).toHaveText(msg('en', 'player.danmakuCount').replace('{{count}}', '1'));

  // Ahead of B (paused here): it waits for its moment, then enters like any other, unframed.
  await b.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.pause());
  const bTime = await videoTime(b);
  await a.locator('video[data-video]').evaluate((v: HTMLVideoElement, seconds) => {
    v.currentTime = seconds;
  }, bTime + 2);
  await expect.poll(() => videoTime(a)).toBeGreaterThan(bTime + 2);
  await a.waitForTimeout(3_100); // one danmaku per 3 s
  await a.locator('[data-danmaku-input]').fill('ahead of B');
  await a.locator('[data-danmaku-input]').press('Enter');
  await expect(b.locator('.player-bar-count')).toHaveText(
    msg('en', 'player.danmakuCount').replace('{{count}}', '2'),
    LIVE,
  );
  expect(await onStage(b, 'ahead of B')).toEqual([]);
  await b.locator('video[data-video]').evaluate((v: HTMLVideoElement) => v.play());
  await expect
    .poll(async () => (await onStage(b, 'ahead of B')).map((i) => i.isNew), { timeout: 15_000 })
    .toEqual([false]);
  expect(await videoTime(b)).toBeGreaterThan(bTime + 1.9);

  // A leaves: B's count follows.
  await a.context().close();
  await expect(b.locator('[data-watching]')).toHaveText(msg('en', 'player.watching').replace('{{count}}', '1'), LIVE);
  await b.context().close();
});
