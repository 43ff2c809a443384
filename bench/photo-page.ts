/**
 * The /photo page's weight on a first view (issue 13: goal <= 400 KB with 30 posts): every byte
 * Chromium receives (HTML, CSS, JS, images, as transferred, compressed), with an empty cache, at
 * 1280 × 800 and at 375 × 812 (DPR 2, a phone). The server is the real one (built site, fresh
 * data directory) with 30 approved posts of 1-3 images seeded through the real upload, render
 * and review path (bench/photo-fixtures.ts).
 * Usage: npx astro build && node bench/photo-page.ts   (PHOTO_BENCH_PORT, default 4562)
 * PHOTO_BENCH_KEEP=1 leaves the server running afterwards (for screenshots) until Ctrl+C.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { startServer } from '../server/main.ts';
import { seedPhotoPosts } from './photo-fixtures.ts';

const POSTS = 30;
const GOAL_KB = 400;
const port = Number(process.env.PHOTO_BENCH_PORT ?? 4562);
const dataDir = mkdtempSync(join(tmpdir(), 'photo-bench-'));
const running = await startServer({
  ...process.env,
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  DEMO: '0',
  LOG_LEVEL: 'warn',
  SERVE_SITE: '1',
});
const baseUrl = `http://127.0.0.1:${running.port}`;
const seedStart = performance.now();
const { ids, uploader } = await seedPhotoPosts(baseUrl, running.database.db, POSTS);
console.log(`seeded ${ids.length} posts in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
async function firstView(viewport: { width: number; height: number }, deviceScaleFactor: number) {
  const context = await browser.newContext({ viewport, deviceScaleFactor });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const types = new Map<string, string>();
  const byType: Record<string, number> = {};
  let total = 0;
  let requests = 0;
  cdp.on('Network.responseReceived', (e) => types.set(e.requestId, e.type));
  cdp.on('Network.loadingFinished', (e) => {
    const type = types.get(e.requestId) ?? 'Other';
    byType[type] = (byType[type] ?? 0) + e.encodedDataLength;
    total += e.encodedDataLength;
    requests++;
  });
  await page.goto(`${baseUrl}/en/photo`, { waitUntil: 'networkidle' });
  const tiles = await page.locator('.photo-grid > li').count();
  await context.close();
  return {
    viewport: `${viewport.width}x${viewport.height}@${deviceScaleFactor}x`,
    tiles,
    requests,
    totalKB: +(total / 1024).toFixed(1),
    byTypeKB: Object.fromEntries(Object.entries(byType).map(([k, v]) => [k, +(v / 1024).toFixed(1)])),
  };
}
const runs = [await firstView({ width: 1280, height: 800 }, 1), await firstView({ width: 375, height: 812 }, 2)];
await browser.close();

const result = {
  when: new Date().toISOString(),
  loadAverage: loadavg().map((l) => +l.toFixed(2)),
  posts: POSTS,
  goalKB: GOAL_KB,
  runs,
  met: runs.every((r) => r.totalKB <= GOAL_KB),
};
console.log(JSON.stringify(result, null, 2));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/photo-page.json', `${JSON.stringify(result, null, 2)}\n`);

if (process.env.PHOTO_BENCH_KEEP) {
  console.log(`server kept at ${baseUrl} (uploader cookie: ${uploader}); first post kp${ids[0]}`);
} else {
  await running.close();
  rmSync(dataDir, { recursive: true, force: true });
}
