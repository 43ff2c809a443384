/**
 * Clickjacking: another site cannot frame the site's pages, the settings pages with their
 * destructive buttons included (frame-ancestors 'self', docs/decisions/0013-security-headers.md).
 * The other site is a page served on another loopback port; the site may still frame itself.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { E2E_BASE_URL, waitForShell } from './helpers.ts';

let other: Server;
let otherOrigin = '';

test.beforeAll(async () => {
  // The other site: one page that frames whatever its query names on the site.
  other = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').searchParams.get('frame') ?? '/';
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(
      `<!doctype html><title>Another site</title><iframe id="victim" src="${E2E_BASE_URL}${path}" width="800" height="600"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => other.close(() => resolve())));

for (const path of [
  '/en/settings/security',
  '/en/settings/privacy',
  '/en/',
  '/en/search',
  '/en/video/kv1',
  '/no-such-page',
]) {
  test(`another site cannot frame ${path}`, async ({ page }) => {
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) refusals.push(message.text());
    });
    const answers: number[] = [];
    page.on('response', (response) => {
      if (response.url().startsWith(E2E_BASE_URL)) answers.push(response.status());
    });
    await page.goto(`${otherOrigin}/?frame=${encodeURIComponent(path)}`);
    // The site answered the frame's request, and the browser refused to show it, saying why.
    await expect.poll(() => refusals.length).toBeGreaterThan(0);
    expect(answers.length).toBeGreaterThan(0);
    expect(refusals[0]).toContain("frame-ancestors 'self'");
    const frame = page.frames().find((f) => f !== page.mainFrame())!;
    expect(
      frame.url().startsWith(E2E_BASE_URL) &&
        (await frame
          .locator('#root')
          .count()
          .catch(() => 0)) > 0,
    ).toBe(false);
  });
}

test('the site may frame its own pages', async ({ page }) => {
  const refusals: string[] = [];
  page.on('console', (message) => {
    if (/frame-ancestors|Refused to/.test(message.text())) refusals.push(message.text());
  });
  await page.goto('/en/search');
  await waitForShell(page);
  const title = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const frame = document.createElement('iframe');
        frame.src = '/en/settings/security';
        frame.addEventListener('load', () => resolve(frame.contentDocument?.title ?? ''));
        document.body.append(frame);
      }),
  );
  expect(title).toContain('Kiraboshi');
  expect(refusals).toEqual([]);
});
