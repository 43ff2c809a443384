/**
 * A member browses page after page, each with the bell's live stream, under the service worker:
 * every request still gets its answer. The worker used to fetch and keep event streams like any
 * API read; a stream never ends, so each one held a connection after its page was left, and
 * after about seven pages the browser's six connections to the site were all taken: the player's
 * history write, searches, everything waited without end, with no error anywhere (issue 26).
 */
import { expect, test } from '@playwright/test';
import { signUpByApi, waitForShell } from './helpers.ts';

test("page after page with the bell's stream, a member's requests are still answered", async ({ page }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && errors.push(`console.error: ${message.text()}`));
  await signUpByApi(page, 'Wanderer');
  await page.goto('/en/');
  await waitForShell(page);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

  // Twice the browser's connections per site (6): with one stream kept per page, the last pages' requests would never be answered.
  const paths = ['/en/', '/en/category', '/en/photo', '/en/audio', '/en/history', '/en/collections'];
  for (let visit = 0; visit < 12; visit++) {
    const path = paths[visit % paths.length];
    const stream = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/notification/live');
    await page.goto(path);
    await waitForShell(page);
    await stream; // this page's stream is open (its headers came)
    expect(await page.evaluate(() => navigator.serviceWorker.controller !== null), `the worker controls ${path}`).toBe(
      true,
    );
    // The member's own read and a public one both come back (they waited forever once the connections ran out).
    const answers = await page.evaluate(async () =>
      Promise.all([
        fetch('/api/history/anchor?videoId=1').then((r) => r.status),
        fetch('/api/health').then((r) => r.status),
      ]),
    );
    expect(answers, `requests answered on visit ${visit + 1} (${path})`).toEqual([200, 200]);
  }
  expect(errors).toEqual([]);
});
