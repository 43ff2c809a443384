/**
 * Guests' pages kept in the process (server/site/page-cache.ts) as the server serves them:
 * the real site (needs `astro build`), PGlite, changes made through the API. The cache's own
 * rules (lifetimes, Vary, the memory bound) are in tests/unit/page-cache.test.ts; the notice
 * between processes in tests/api/scale-out.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { jsonCall, startTestServer, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';

const built = existsSync('dist/server/entry.mjs');

describe.skipIf(!built)('pages kept for guests (needs `npm run build`)', () => {
  let server: TestServer;
  let uploader = '';
  let staff = '';
  const guest = (path: string) => fetch(server.baseUrl + path, { headers: { 'Accept-Encoding': 'br' } });
  const titled = async (videoId: number, title: string) => {
    await server.db.updateTable('videos').set({ title }).where('video_id', '=', videoId).execute();
  };

  beforeAll(async () => {
    server = await startTestServer('pglite', { site: true });
    uploader = await member(server, 'KeptUploader');
    staff = await member(server, 'KeptReviewer', ['administrator']);
  });
  afterAll(() => server?.close());

  it('answers the next guest from the first render, with its age, and never a member', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    await titled(videoId, '星空の下で');
    const first = await guest(`/en/video/kv${videoId}`);
    expect(first.headers.get('x-cache')).toBe('MISS');
    const firstBody = await first.text();
    expect(firstBody).toContain('星空の下で');
    const second = await guest(`/en/video/kv${videoId}`);
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(second.headers.get('age')).toMatch(/^\d+$/);
    expect(second.headers.get('content-encoding')).toBe('br');
    expect(second.headers.get('cache-control')).toContain('s-maxage=60');
    expect(second.headers.get('content-security-policy')).toBe(first.headers.get('content-security-policy'));
    expect(second.headers.get('set-cookie')).toBeNull();
    expect(await second.text()).toBe(firstBody);

    // A member's request is rendered for them, and what they got is kept for nobody.
    const own = await fetch(`${server.baseUrl}/en/video/kv${videoId}`, {
      headers: { Cookie: uploader, 'Accept-Encoding': 'br' },
    });
    expect(own.status).toBe(200);
    expect(own.headers.get('x-cache')).toBeNull();
    expect((await guest(`/en/video/kv${videoId}`)).headers.get('x-cache')).toBe('HIT');
  });

  it("keeps a page asked for under another Host apart: no request poisons the next guest's page", async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const underHost = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const req = httpRequest(`${server.baseUrl}/en/video/kv${videoId}`, { headers: { Host: host } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve(body));
        });
        req.on('error', reject);
        req.end();
      });
    expect(await underHost('evil.example')).toContain('evil.example');
    expect(await underHost('evil.example')).toContain('evil.example');
    const page = await (await guest(`/en/video/kv${videoId}`)).text();
    expect(page).not.toContain('evil.example');
  });

  it('keeps no page that says private: a video played from a collection', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    for (let i = 0; i < 2; i++) {
      const page = await guest(`/en/video/kv${videoId}?collection=1`);
      expect(page.headers.get('cache-control')).toContain('private');
      expect(page.headers.get('x-cache')).toBe('MISS');
    }
  });

  it('shows an edit to the next guest at once', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    await titled(videoId, 'Before the edit');
    await guest(`/en/video/kv${videoId}`);
    expect(await (await guest(`/en/video/kv${videoId}`)).text()).toContain('Before the edit');
    // An edit of an approved video sends it back to review: guests no longer see it, then see the new title once approved.
    const edit = await jsonCall(server, 'video/update', {
      method: 'POST',
      cookie: uploader,
      body: { videoId, title: 'After the edit' },
    });
    expect(edit).toMatchObject({ status: 200, body: { status: 'pending', backToReview: true } });
    const hidden = await guest(`/en/video/kv${videoId}`);
    expect(hidden.headers.get('x-cache')).not.toBe('HIT');
    expect(await hidden.text()).not.toContain('Before the edit');
    expect(
      (await jsonCall(server, 'video/pending/approved', { method: 'POST', cookie: staff, body: { videoId } })).status,
    ).toBe(200);
    const html = await (await guest(`/en/video/kv${videoId}`)).text();
    expect(html).toContain('After the edit');
    expect(html).not.toContain('Before the edit');
  });

  it('shows a review to the next guest at once: an approved upload appears on the kept home page', async () => {
    const videoId = await insertVideo(server, uploader, 60_000, 'pending');
    await titled(videoId, 'Waiting for review');
    await guest('/en/');
    const kept = await guest('/en/');
    expect(kept.headers.get('x-cache')).toBe('HIT');
    expect(await kept.text()).not.toContain('Waiting for review');
    expect(
      (await jsonCall(server, 'video/pending/approved', { method: 'POST', cookie: staff, body: { videoId } })).status,
    ).toBe(200);
    const after = await guest('/en/');
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect(await after.text()).toContain('Waiting for review');
  });

  it('renders once for guests arriving together', async () => {
    const videoId = await insertVideo(server, uploader, 60_000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => guest(`/en/video/kv${videoId}`)));
    const bodies = await Promise.all(answers.map((answer) => answer.text()));
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
    expect(answers.filter((answer) => answer.headers.get('x-cache') === 'MISS')).toHaveLength(1);
    expect(new Set(bodies).size).toBe(1);
  });

  it('forgets a member page when its profile changes', async () => {
    const uid = Number(/uid=(\d+)/.exec(uploader)![1]);
    await guest(`/en/user/${uid}`);
    expect((await guest(`/en/user/${uid}`)).headers.get('x-cache')).toBe('HIT');
    const changed = await jsonCall(server, 'user/update/info', {
      method: 'POST',
      cookie: uploader,
      body: { signature: 'ほしぞらを撮っています' },
    });
    expect(changed.status).toBe(200);
    const after = await guest(`/en/user/${uid}`);
    expect(after.headers.get('x-cache')).toBe('MISS');
    expect(await after.text()).toContain('ほしぞらを撮っています');
  });
});
