import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAudio, insertVideo, member } from './media-helpers.ts';
import {
  localizedUrls,
  SITEMAP_MAX_BYTES,
  SITEMAP_MAX_URLS,
  SITEMAP_VIDEOS_PER_FILE_MAX,
  urlSet,
} from '../../src/lib/navigation/sitemap.ts';
import { hashToken } from '../../server/services/sessions.ts';
import { searchTextOf } from '../../server/services/videos.ts';
import { announceForgotten } from '../../server/events/cache-invalidation.ts';

const uidOf = (cookie: string) => Number(/uid=(\d+)/.exec(cookie)![1]);

const built = existsSync('dist/server/entry.mjs');

/** The site as the one process serves it: navigation rules, prerendered files, on-demand pages. */
describe.skipIf(!built)('site served by the server (needs `npm run build`)', () => {
  let server: TestServer;
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(server.baseUrl + path, { headers, redirect: 'manual' });

  beforeAll(async () => {
    server = await startTestServer('pglite', { site: true });
  });
  afterAll(() => server?.close());

  it('serves prerendered pages with the locale’s lang and revalidating cache headers', async () => {
    const response = await get('/en/');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('max-age=0');
    expect(await response.text()).toContain('<html lang="en-US"');
    expect(await (await get('/yue/')).text()).toContain('<html lang="zh-Hant-HK"');
  });

  it('compresses pages rendered on demand too (home, video, user), with their length', async () => {
    for (const path of ['/en/', '/', '/user/1']) {
      const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        const req = httpRequest(
          `${server.baseUrl}${path}`,
          { headers: { 'Accept-Encoding': 'gzip', 'Accept-Language': 'zh-CN' } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
          },
        );
        req.on('error', reject);
        req.end();
      });
      expect(raw.headers['content-encoding'], path).toBe('gzip');
      expect(Number(raw.headers['content-length']), path).toBe(raw.body.length);
      expect(String(raw.headers.vary), path).toContain('Accept-Encoding');
      expect(gunzipSync(raw.body).toString(), path).toContain('<html lang=');
    }
  });

  it("answers / in the browser's language at once, no redirect", async () => {
    const response = await get('/', { 'Accept-Language': 'ja-JP,ja;q=0.9' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-language')).toMatch(/^ja/);
    expect(response.headers.get('set-cookie')).toContain('i18n_redirected=ja');
    const html = await response.text();
    expect(html).toContain('<html lang="ja-JP"');
    expect(html).toContain('history.replaceState(history.state,\'\',"/ja/"');
  });

  it('compresses text, answers conditional requests and HEAD', async () => {
    const raw = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
      (resolve, reject) => {
        const req = httpRequest(`${server.baseUrl}/en/history`, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      },
    );
    expect(raw.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(raw.body).toString()).toContain('<title>History - Kiraboshi</title>');
    const etag = (await get('/en/history')).headers.get('etag')!;
    expect((await get('/en/history', { 'If-None-Match': etag })).status).toBe(304);
    expect((await fetch(`${server.baseUrl}/en/history`, { method: 'HEAD' })).status).toBe(200);
  });

  it('writes each prerendered page’s data beside it as _payload.json', async () => {
    const response = await get('/en/history/_payload.json');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      locale: 'en',
      route: '/history',
      title: 'History',
      data: { page: 'history' },
    });
  });

  it('serves one locale’s messages for 24 hours and the build manifest uncached', async () => {
    const messages = await get('/_i18n/ja/messages.json');
    expect(messages.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(((await messages.json()) as { ja: { nav: { home: string } } }).ja.nav.home).toBe('ホーム');
    const latest = await get('/_app/builds/latest.json');
    expect(latest.headers.get('cache-control')).toBe('no-cache');
    const { buildId } = (await (await server.api('health')).json()) as { buildId: string };
    expect(((await latest.json()) as { id: string }).id).toBe(buildId);
    // No per-build meta with route rules: nothing reads them (docs/decisions/0018-no-build-meta.md).
    expect((await get(`/_app/builds/meta/${buildId}.json`)).status).toBe(404);
  });

  it('never serves files outside the site', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/..%2f..%2fpackage.json', '/%00']) {
      const response = await get(path);
      expect(response.status, path).not.toBe(200);
      expect(await response.text()).not.toContain('"scripts"');
    }
  });

  it('renders a video uploaded after the build at once, and sends a missing one to error 301', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'uploader' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const video = await server.db
      .insertInto('videos')
      .values({ uploader_uid: user.uid, title: '夜空の歌 <b>', status: 'approved' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    const page = await get(`/ja/video/kv${video.video_id}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toContain('s-maxage=60');
    expect(page.headers.get('content-language')).toBe('ja-JP');
    const html = await page.text();
    expect(html).toContain('<title>夜空の歌 &lt;b&gt; - きらぼし</title>');
    expect(html).toContain('<h1 class="video-title">夜空の歌 &lt;b&gt;</h1>');
    expect((await get(`/video/${video.video_id}`)).headers.get('location')).toBe(`/video/kv${video.video_id}`);
    expect((await get(`/video/kv${video.video_id}/comments`)).headers.get('location')).toBe(
      `/video/kv${video.video_id}`,
    );
    const missing = await get('/en/video/kv999999');
    expect(missing.status).toBe(302);
    expect(missing.headers.get('location')).toBe('/en/error/301');
    const tooBig = await get('/video/kv99999999999999999999');
    expect(tooBig.status).toBe(404);
    expect(await tooBig.text()).toContain('KVID 超出了支持的范围');
  });

  it('renders /search on demand with the first results, without what a member blocked, cached as the other lists', async () => {
    const [alice, bob, reader] = await Promise.all(
      ['SearchAlice', 'SearchBob', 'SearchReader'].map((name) => member(server, name)),
    );
    const publish = async (cookie: string, title: string) =>
      server.db
        .updateTable('videos')
        .set({ title, search_text: searchTextOf(title, '') })
        .where('video_id', '=', await insertVideo(server, cookie, 30_000))
        .execute();
    await publish(alice, 'Comet hunting for beginners');
    await publish(bob, 'Comet photography at night');
    await publish(alice, 'Sourdough in three days');
    const card = (title: string) => `title="${title}">${title}</a>`;

    const guest = await get('/en/search?keyword=comet');
    expect(guest.status).toBe(200);
    expect(guest.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=30, stale-while-revalidate=300');
    const html = await guest.text();
    expect(html).toContain(card('Comet hunting for beginners'));
    expect(html).toContain(card('Comet photography at night'));
    expect(html).not.toContain('Sourdough');
    expect(html).toContain('data-results-count="2"');

    // A member: private and revalidated; once they block Bob, his video is gone and the page is theirs alone.
    const before = await get('/en/search?keyword=comet', { Cookie: reader });
    expect(before.headers.get('cache-control')).toBe('private, no-cache');
    expect(await before.text()).toContain(card('Comet photography at night'));
    const blocked = await server.api('block/user', {
      method: 'POST',
      headers: { Cookie: reader, 'Content-Type': 'application/json' },
      body: JSON.stringify({ blockUid: uidOf(bob) }),
    });
    expect(blocked.status, await blocked.clone().text()).toBe(200);
    const after = await get('/en/search?keyword=comet', { Cookie: reader });
    expect(after.headers.get('cache-control')).toBe('private, no-store');
    const filtered = await after.text();
    expect(filtered).toContain(card('Comet hunting for beginners'));
    expect(filtered).not.toContain('Comet photography');
    expect(await (await get('/en/search?keyword=comet')).text()).toContain(card('Comet photography at night'));

    // No query: the prompt, as before. Control characters are dropped as from any API query.
    const empty = await get('/en/search');
    expect(empty.status).toBe(200);
    expect(await empty.text()).toContain('data-state="prompt"');
    expect(await (await get('/en/search?keyword=%01comet%7F')).text()).toContain('data-results-count="2"');
  });

  it('opens the video of a KVID typed as the search, or says that KVID does not exist (SPEC §5)', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'kvid-uploader' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const approved = await server.db
      .insertInto('videos')
      .values({ uploader_uid: user.uid, title: 'Typed by number', status: 'approved' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    const pending = await server.db
      .insertInto('videos')
      .values({ uploader_uid: user.uid, title: 'Not out yet', status: 'pending' })
      .returning('video_id')
      .executeTakeFirstOrThrow();
    for (const typed of [`kv${approved.video_id}`, `KV ${approved.video_id}`]) {
      const found = await get(`/en/search?keyword=${encodeURIComponent(typed)}`);
      expect(found.status, typed).toBe(302);
      expect(found.headers.get('location')).toBe(`/en/video/kv${approved.video_id}`);
      expect(found.headers.get('cache-control')).toBe('private, no-store');
    }
    // Missing, or pending for a guest: the search runs, under the spec's message in the page's language.
    for (const id of [999_999, pending.video_id]) {
      const page = await get(`/search?keyword=kv${id}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(
        '<p class="card search-notice" role="status" data-kvid-notice>你输入的 KVID 不存在</p>',
      );
    }
    expect(await (await get('/en/search?keyword=kv99999999999999999999')).text()).toContain(
      'The KVID is outside the supported range',
    );
    // Words that merely contain digits are a search like any other.
    expect(await (await get('/en/search?keyword=kv123%20opening')).text()).not.toContain('data-kvid-notice');
  });

  it('answers /search queries the API refuses as the API does: 400, its message and the fields at fault, never a 500', async () => {
    const cases: Array<[string, string]> = [
      [`keyword=${'x'.repeat(101)}`, 'keyword'],
      ['keyword=%01%02', 'keyword'],
      ['tag=99999999999999999999', 'tagId.0'],
    ];
    for (const [params, field] of cases) {
      const page = await get(`/en/search?${params}`);
      const api = params.startsWith('keyword')
        ? await server.api(`video/search?${params}`, { headers: { 'X-Client-Language': 'en' } })
        : await server.api('video/search/tag', {
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'X-Client-Language': 'en' },
            body: JSON.stringify({ tagId: [1e20] }),
          });
      const answer = (await api.json()) as { message: string; issues: Array<{ path: string; message: string }> };
      expect(api.status, params).toBe(400);
      expect(page.status, params).toBe(400);
      expect(page.headers.get('cache-control'), params).toBe('no-store');
      const html = await page.text();
      expect(html, params).toContain('data-state="invalid"');
      expect(html, params).toContain(answer.message);
      for (const issue of answer.issues) {
        expect(issue.path, params).toBe(field);
        expect(html, params).toContain(`<code>${issue.path}</code>: ${issue.message.replaceAll('<', '&lt;')}`);
      }
    }
    // What the address cannot say sensibly is read as the island always read it: the prompt, page 1.
    expect(await (await get('/en/search?tag=abc,-1&page=zero&pageSize=9999')).text()).toContain('data-state="prompt"');
    expect((await get('/en/search?keyword=comet&page=99999')).status).toBe(200);
    expect((await get('/xx/search?keyword=comet')).status).toBe(404);
  });

  it('renders user pages on demand with the UID messages of the spec', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'hikari', user_nickname: 'ひかり' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const page = await get(`/user/${user.uid}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('ひかり');
    expect((await get(`/en/user/${user.uid}/collections`)).status).toBe(200);
    expect((await get(`/user/${user.uid}/videos/extra`)).headers.get('location')).toBe(`/user/${user.uid}`);
    const invalid = await get('/user/abc');
    expect(invalid.status).toBe(404);
    expect(await invalid.text()).toContain('不合法');
    const missing = await get('/en/user/987654');
    expect(missing.status).toBe(404);
    const text = await missing.text();
    expect(text).toContain('用户不存在');
    expect(text).toContain('This user does not exist.');
  });

  it('admits administrators to the administrator settings pages and redirects everyone else', async () => {
    const guest = await get('/en/settings/content');
    expect(guest.status).toBe(302);
    expect(guest.headers.get('location')).toBe('/en/settings/appearance');
    const admin = await server.db
      .insertInto('users')
      .values({ username: 'admin', roles: ['administrator'] })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const member = await server.db
      .insertInto('users')
      .values({ username: 'member', roles: ['user'] })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const expires_at = new Date(Date.now() + 3_600_000);
    await server.db
      .insertInto('sessions')
      .values([
        { token_hash: hashToken('admin-token'), uid: admin.uid, expires_at },
        { token_hash: hashToken('member-token'), uid: member.uid, expires_at },
      ])
      .execute();
    for (const page of ['content', 'user-info', 'user-block']) {
      const asAdmin = await get(`/settings/${page}`, { Cookie: `uid=${admin.uid}; token=admin-token` });
      expect(asAdmin.status, page).toBe(200);
      expect(asAdmin.headers.get('cache-control')).toBe('private, no-store');
      const asMember = await get(`/settings/${page}`, { Cookie: `uid=${member.uid}; token=member-token` });
      expect(asMember.headers.get('location')).toBe('/settings/appearance');
    }
    const forged = await get('/settings/content', { Cookie: `uid=${admin.uid}; token=member-token` });
    expect(forged.status).toBe(302);
  });

  it('answers unknown settings pages and unknown paths with 404', async () => {
    const unknown = await get('/en/settings/nonsense');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('There is no settings page called “nonsense”.');
    const nope = await get('/nope');
    expect(nope.status).toBe(404);
    expect(await nope.text()).toContain('Page Not Found: /nope');
    expect((await get('/xx/video/kv1')).status).toBe(404);
  });

  it('serves the error layouts 301, 403, 404, 500 and 502 as prerendered files, each with its status', async () => {
    const cases: Array<[string, string, number]> = [
      ['/en/error/301', 'dist/client/en/error/301/index.html', 404], // the missing-video page is a not-found answer
      ['/error/403', 'dist/client/error/403/index.html', 403],
      ['/ja/error/404', 'dist/client/ja/error/404/index.html', 404],
      ['/en/error/500', 'dist/client/en/error/500/index.html', 500],
      ['/yue/error/502', 'dist/client/yue/error/502/index.html', 502],
    ];
    for (const [path, file, status] of cases) {
      expect(existsSync(file), file).toBe(true);
      const response = await get(path);
      expect(response.status, path).toBe(status);
      expect(response.headers.get('content-type'), path).toContain('text/html');
      // The file as built: the same bytes, not a page rendered for this request.
      expect(await response.text(), path).toBe(readFileSync(file, 'utf8'));
      // Asked again with its ETag, it keeps its status (a 304 would turn it into the cached 200 of nothing).
      const again = await get(path, { 'If-None-Match': response.headers.get('etag') ?? '' });
      expect(again.status, path).toBe(status);
    }
    expect(await (await get('/en/error/403')).text()).toContain('data-error-variant="forbidden"');
    // Any other code still renders on demand.
    const teapot = await get('/en/error/418');
    expect(teapot.status).toBe(418);
    expect(existsSync('dist/client/en/error/418/index.html')).toBe(false);
  });

  it('withholds error pages from crawlers (the status only), and still shows them to browsers and serves crawlers real pages', async () => {
    const googlebot = { 'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' };
    const browser = {
      'User-Agent':
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0 Safari/537.36',
    };
    for (const path of ['/en/error/301', '/en/settings/nonsense', '/error/403', '/nope']) {
      const withheld = await get(path, googlebot);
      expect(withheld.status, path).toBeGreaterThanOrEqual(400);
      expect(await withheld.text(), path).toBe('');
      const shown = await get(path, browser);
      expect(shown.status, path).toBe(withheld.status);
      expect((await shown.text()).length, path).toBeGreaterThan(0);
    }
    const home = await get('/en/', googlebot);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('<html lang="en-US"');
  });

  it('serves a sitemap with every language as hreflang alternates', async () => {
    const index = await get('/sitemap.xml');
    expect(index.headers.get('content-type')).toContain('application/xml');
    expect(await index.text()).toContain('<sitemap><loc>http://localhost:4321/sitemap-pages.xml</loc></sitemap>');
    const response = await get('/sitemap-pages.xml');
    expect(response.headers.get('content-type')).toContain('application/xml');
    const xml = await response.text();
    expect(xml).toContain('<loc>http://localhost:4321/en/search</loc>');
    expect(xml).toContain('hreflang="zh-Hant-HK" href="http://localhost:4321/yue/search"');
    expect(xml).not.toContain('/settings');
  });

  it('lists every approved video in the video sitemap as soon as it is approved, with lastmod', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'mapper' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const reviewed = new Date('2026-11-20T08:00:00Z');
    const [approved, pending] = await Promise.all([
      server.db
        .insertInto('videos')
        .values({ uploader_uid: user.uid, title: 'a', status: 'approved', reviewed_at: reviewed })
        .returning('video_id')
        .executeTakeFirstOrThrow(),
      server.db
        .insertInto('videos')
        .values({ uploader_uid: user.uid, title: 'p', status: 'pending' })
        .returning('video_id')
        .executeTakeFirstOrThrow(),
    ]);
    const index = await (await get('/sitemap.xml')).text();
    expect(index).toContain('<loc>http://localhost:4321/sitemap-videos-1.xml</loc>');
    const response = await get('/sitemap-videos-1.xml');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    const xml = await response.text();
    expect(xml).toContain(
      `<url><loc>http://localhost:4321/ja/video/kv${approved.video_id}</loc><lastmod>2026-11-20T08:00:00.000Z</lastmod>`,
    );
    expect(xml).toContain(`hreflang="x-default" href="http://localhost:4321/video/kv${approved.video_id}"`);
    expect(xml).not.toContain(`/video/kv${pending.video_id}<`);
  });
});

describe.skipIf(!built).each(BACKENDS)('the video sitemap in files on %s', (backend) => {
  let server: TestServer;
  const get = (path: string) => fetch(server.baseUrl + path, { redirect: 'manual' });
  /** The index's video files: path and lastmod. */
  const indexed = async () =>
    [
      ...(await (await get('/sitemap.xml')).text()).matchAll(
        /<loc>[^<]*(\/sitemap-videos-\d+\.xml)<\/loc><lastmod>([^<]+)</g,
      ),
    ].map((m) => [m[1], m[2]]);
  const videoIdsIn = async (path: string) =>
    [...(await (await get(path)).text()).matchAll(/<loc>http:\/\/localhost:4321\/video\/kv(\d+)<\/loc>/g)].map((m) =>
      Number(m[1]),
    );

  beforeAll(async () => {
    server = await startTestServer(backend, { site: true, env: { SITEMAP_VIDEOS_PER_FILE: '3' } });
  });
  afterAll(() => server?.close());

  it('splits the videos into files of the configured size, listed by the index with their newest change, updated without a rebuild', async () => {
    const user = await server.db
      .insertInto('users')
      .values({ username: 'prolific' })
      .returning('uid')
      .executeTakeFirstOrThrow();
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 8));
    // Ids 1-8: six approved, a pending one (6) and a deleted one (8); files hold ids 1-3, 4-6, 7-9.
    const statuses = [
      'approved',
      'approved',
      'approved',
      'approved',
      'approved',
      'pending',
      'approved',
      'deleted',
    ] as const;
    const rows = await server.db
      .insertInto('videos')
      .values(
        statuses.map((status, i) => ({
          uploader_uid: user.uid,
          title: `v${i + 1}`,
          status,
          reviewed_at: status === 'approved' ? day(i + 1) : null,
        })),
      )
      .returning('video_id')
      .execute();
    const ids = rows.map((r) => Number(r.video_id));
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    // Rows written here, not through a review: what a review announces (server/events/cache-invalidation.ts),
    // so the pages kept for guests (server/site/page-cache.ts) are forgotten as they would be.
    const reviewed = () => announceForgotten(server.caches.notices, { cache: 'pages' });
    reviewed();

    expect(await indexed()).toEqual([
      ['/sitemap-videos-1.xml', day(3).toISOString()],
      ['/sitemap-videos-2.xml', day(5).toISOString()],
      ['/sitemap-videos-3.xml', day(7).toISOString()],
    ]);
    expect(await videoIdsIn('/sitemap-videos-1.xml')).toEqual([1, 2, 3]);
    expect(await videoIdsIn('/sitemap-videos-2.xml')).toEqual([4, 5]);
    expect(await videoIdsIn('/sitemap-videos-3.xml')).toEqual([7]);
    for (const missing of [
      '/sitemap-videos-4.xml',
      '/sitemap-videos-0.xml',
      '/sitemap-videos-x.xml',
      '/sitemap-videos.xml',
    ]) {
      expect((await get(missing)).status, missing).toBe(404);
    }

    // Approving the pending video changes its file and the index at once; a new video opens a file.
    const now = new Date();
    await server.db
      .updateTable('videos')
      .set({ status: 'approved', reviewed_at: now })
      .where('video_id', '=', 6)
      .execute();
    await server.db
      .insertInto('videos')
      .values(
        ['v9', 'v10'].map((title) => ({
          uploader_uid: user.uid,
          title,
          status: 'approved' as const,
          reviewed_at: now,
        })),
      )
      .execute();
    reviewed();
    expect(await videoIdsIn('/sitemap-videos-2.xml')).toEqual([4, 5, 6]);
    expect(await videoIdsIn('/sitemap-videos-3.xml')).toEqual([7, 9]);
    expect(await videoIdsIn('/sitemap-videos-4.xml')).toEqual([10]);
    expect(await indexed()).toEqual([
      ['/sitemap-videos-1.xml', day(3).toISOString()],
      ['/sitemap-videos-2.xml', now.toISOString()],
      ['/sitemap-videos-3.xml', now.toISOString()],
      ['/sitemap-videos-4.xml', now.toISOString()],
    ]);
  });

  it('pages the audio sitemap the same way: files of track ids listed by the index, without pending or deleted tracks', async () => {
    const uploader = await member(server, 'Musician');
    const day = (d: number) => new Date(Date.UTC(2026, 10, d, 8));
    const statuses = ['approved', 'pending', 'approved', 'approved', 'deleted', 'approved', 'approved'] as const;
    const ids: number[] = [];
    for (const [i, status] of statuses.entries()) {
      const audioId = await insertAudio(server, uploader, 30_000, status === 'approved' ? 'approved' : 'pending');
      await server.db
        .updateTable('audio_tracks')
        .set({ status, reviewed_at: status === 'approved' ? day(i + 1) : null })
        .where('audio_id', '=', audioId)
        .execute();
      ids.push(audioId);
    }
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7]);
    // Written here, not reviewed: the review's notice, as above.
    announceForgotten(server.caches.notices, { cache: 'pages' });
    const audioIndexed = async () =>
      [
        ...(await (await get('/sitemap.xml')).text()).matchAll(
          /<loc>[^<]*(\/sitemap-audio-\d+\.xml)<\/loc><lastmod>([^<]+)</g,
        ),
      ].map((m) => [m[1], m[2]]);
    const trackIdsIn = async (path: string) =>
      [...(await (await get(path)).text()).matchAll(/<loc>http:\/\/localhost:4321\/audio\/ka(\d+)<\/loc>/g)].map((m) =>
        Number(m[1]),
      );
    expect(await audioIndexed()).toEqual([
      ['/sitemap-audio-1.xml', day(3).toISOString()],
      ['/sitemap-audio-2.xml', day(6).toISOString()],
      ['/sitemap-audio-3.xml', day(7).toISOString()],
    ]);
    expect(await trackIdsIn('/sitemap-audio-1.xml')).toEqual([1, 3]);
    expect(await trackIdsIn('/sitemap-audio-2.xml')).toEqual([4, 6]);
    expect(await trackIdsIn('/sitemap-audio-3.xml')).toEqual([7]);
    for (const missing of ['/sitemap-audio-4.xml', '/sitemap-audio-0.xml', '/sitemap-audio.xml'])
      expect((await get(missing)).status, missing).toBe(404);
  });
});

describe('video sitemap files', () => {
  it("stay within the protocol's 50,000 URLs and 50 MB at the largest file size, even with long ids and a long origin", () => {
    const origin = `https://${'k'.repeat(104)}.example`; // 120 characters
    const xml = urlSet(
      Array.from({ length: SITEMAP_VIDEOS_PER_FILE_MAX }, (_, i) =>
        localizedUrls(origin, `/video/kv${9_007_199_254_740_991 - i}`, new Date()),
      ).join(''),
    );
    expect(xml.match(/<url>/g)!.length).toBeLessThanOrEqual(SITEMAP_MAX_URLS);
    expect(Buffer.byteLength(xml)).toBeLessThan(SITEMAP_MAX_BYTES);
  });
});

describe.skipIf(!built)('a page that fails while rendering', () => {
  for (const development of [false, true]) {
    it(`shows the generic 500 page${development ? ' with the stack in development' : ' without internals in production'}`, async () => {
      const server = await startTestServer('pglite', {
        site: true,
        env: development ? { NODE_ENV: 'development' } : {},
      });
      try {
        const { sql } = await import('kysely');
        await sql`drop table users cascade`.execute(server.db);
        const response = await fetch(`${server.baseUrl}/en/user/1`);
        expect(response.status).toBe(500);
        const html = await response.text();
        expect(html).toContain('data-error-variant="generic"');
        expect(html).toContain('Something went wrong');
        if (development) expect(html).toMatch(/relation .*users.* does not exist/);
        else expect(html).not.toMatch(/relation|does not exist|\.ts:\d+/);
      } finally {
        await server.close();
      }
    });
  }
});
