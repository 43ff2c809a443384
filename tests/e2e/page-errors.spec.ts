/**
 * Every page type loads without a script error: no `pageerror` (an uncaught exception, React's
 * hydration errors such as #418 among them) and no console message of type 'error' (a failed
 * request, a logged failure), once the page has hydrated, its late islands included, and its
 * requests have settled. Each page in the default locale (no prefix) at the desktop width, as a
 * guest and as a member (the administrator for the administration pages), and in English at the
 * phone width, as the member and, on the pages guests arrive on, as a guest: each width is a fresh
 * load, so a store that differs by breakpoint is hydrated both ways.
 * Nothing is filtered: an error that is "expected" is a product bug to fix where it is logged.
 * Each page is served with its Content-Security-Policy on (docs/decisions/0013-security-headers.md),
 * and any violation of it fails the test: the `securitypolicyviolation` events of the page and of
 * its workers, and the browser's "Refused to ..." console messages whatever their level.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  expect,
  test,
  type APIResponse,
  type Browser,
  type BrowserContext,
  type Page,
  type Request,
} from '@playwright/test';
import { ADMIN_SETTINGS_PAGES, DEV_PAGES, SETTINGS_PAGES } from '../../src/lib/navigation/routes.ts';
import {
  E2E,
  E2E_BASE_URL,
  adminRequest,
  localized,
  pathOf,
  publishAudioByApi,
  publishPhotoByApi,
  publishVideoByApi,
  signUpByApi,
  waitForIslands,
  waitForShell,
  type LocaleCode,
} from './helpers.ts';

test.describe.configure({ timeout: 60_000 });

type Role = 'guest' | 'member' | 'admin';

/**
 * One approved video (with a comment), its uploader, a member who watched it (a different user,
 * so the user page offers "Block" and "Hide") and the administrator's session. Kept in the e2e
 * server's folder for the server's life: a failed test restarts the worker, and signing up and
 * logging in again for each would soon meet the rate limits.
 */
interface Fixture {
  uploaderUid: number;
  videoId: number;
  memberUid: number;
  memberCookies: Cookie[];
  adminCookies: Cookie[];
  collectionId: number;
  audioId: number;
  photoId: number;
}
type Cookie = Awaited<ReturnType<BrowserContext['cookies']>>[number];
const FIXTURE_FILE = join(E2E, 'page-errors-fixture.json');
let fixture: Fixture;

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(120_000);
  if (existsSync(FIXTURE_FILE)) {
    fixture = JSON.parse(readFileSync(FIXTURE_FILE, 'utf8')) as Fixture;
    if (fixture.audioId && fixture.photoId) return;
  }
  const uploader = await (await browser.newContext()).newPage();
  const { uid: uploaderUid } = await signUpByApi(uploader, 'Errorless');
  const { videoId } = await publishVideoByApi(uploader, { title: 'A page without errors', seconds: 4 });
  await expectOk(
    uploader.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, { data: { videoId, text: 'First!' } }),
  );
  // …and an approved audio track with a comment and a danmaku (the track page, /audio, the Audio tab).
  const { audioId } = await publishAudioByApi(uploader, {
    title: 'A track without errors',
    artist: 'Errorless',
    seconds: 6,
  });
  await expectOk(
    uploader.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, {
      data: { videoId: audioId, mediaType: 'audio', text: 'Nice tone' },
    }),
  );
  await expectOk(
    uploader.request.post(`${E2E_BASE_URL}/api/video/danmaku/emit`, {
      data: { videoId: audioId, mediaType: 'audio', time: 1, text: 'la', color: 'ffffff' },
    }),
  );
  // …and an approved photo post of two images, with a comment.
  const { photoId } = await publishPhotoByApi(uploader, {
    title: 'Photos without errors',
    images: [
      { width: 900, height: 600, colour: '#e0457b', alt: 'A pink field' },
      { width: 600, height: 900, colour: '#3a7bd5', alt: 'A blue field' },
    ],
  });
  await expectOk(
    uploader.request.post(`${E2E_BASE_URL}/api/video/comment/emit`, {
      data: { videoId: photoId, mediaType: 'photo', text: 'Lovely colours' },
    }),
  );
  await uploader.context().close();

  // The member has a watch history, so /history shows a day with a card rather than the empty state.
  const member = await (await browser.newContext()).newPage();
  const { uid: memberUid } = await signUpByApi(member, 'Watcher');
  await expectOk(member.request.post(`${E2E_BASE_URL}/api/history/record`, { data: { videoId, anchor: 2 } }));
  // …and a public collection holding the video (the collection page, the user's collections tab, the video played from it).
  const created = await member.request.post(`${E2E_BASE_URL}/api/collection/create`, {
    data: { title: 'Without errors', visibility: 'public', videoId },
  });
  expect(created.ok(), `collection/create answered ${created.status()}`).toBe(true);
  const { collectionId } = (await created.json()).collection as { collectionId: number };
  const memberCookies = await member.context().cookies();
  await member.context().close();

  const adminCookies = (await (await adminRequest()).storageState()).cookies;
  fixture = { uploaderUid, videoId, memberUid, memberCookies, adminCookies, collectionId, audioId, photoId };
  writeFileSync(FIXTURE_FILE, JSON.stringify(fixture));
});

async function expectOk(response: Promise<APIResponse>): Promise<void> {
  const answer = await response;
  expect(answer.ok(), `${answer.url()} answered ${answer.status()}`).toBe(true);
}

/**
 * landsOn: where the page sends the browser on by itself (a route without the locale prefix); status: an error page's;
 * embed: a page for other sites' iframes, outside the localized routes and framed by anyone;
 * newBrowser: what it shows depends on a browser that has been nowhere yet (it gets a context of its own).
 */
interface PageType {
  name: string;
  route: () => string;
  roles: Role[];
  landsOn?: (role: Role) => string | undefined;
  status?: number;
  embed?: true;
  newBrowser?: true;
}
const everyone: Role[] = ['guest', 'member'];

const PAGES: PageType[] = [
  { name: 'home', route: () => '/', roles: everyone },
  { name: 'category', route: () => '/category', roles: everyone },
  { name: 'category (anime)', route: () => '/category?category=anime', roles: everyone },
  { name: 'search', route: () => '/search', roles: everyone },
  { name: 'search (keyword)', route: () => `/search?keyword=${encodeURIComponent('without errors')}`, roles: everyone },
  { name: 'video', route: () => `/video/kv${fixture.videoId}`, roles: everyone },
  { name: 'user', route: () => `/user/${fixture.uploaderUid}`, roles: everyone },
  { name: 'user followers', route: () => `/user/${fixture.uploaderUid}/followers`, roles: everyone },
  { name: 'user followings', route: () => `/user/${fixture.memberUid}/followings`, roles: everyone },
  { name: 'video (a part it does not have)', route: () => `/video/kv${fixture.videoId}?p=2`, roles: everyone },
  {
    name: 'own user page',
    route: () => '/user',
    roles: everyone,
    landsOn: (role) => (role === 'member' ? `/user/${fixture.memberUid}` : undefined),
  },
  { name: 'following feed', route: () => '/feed/following', roles: everyone },
  { name: 'own collections', route: () => '/collections', roles: everyone },
  { name: 'collection', route: () => `/collections/${fixture.collectionId}`, roles: everyone },
  {
    name: 'video played from a collection',
    route: () => `/video/kv${fixture.videoId}?collection=${fixture.collectionId}`,
    roles: everyone,
  },
  { name: 'user collections tab', route: () => `/user/${fixture.memberUid}/collections`, roles: everyone },
  { name: 'welcome', route: () => '/welcome', roles: everyone },
  { name: 'audio', route: () => '/audio', roles: everyone },
  { name: 'audio track', route: () => `/audio/ka${fixture.audioId}`, roles: everyone },
  { name: 'user audio tab', route: () => `/user/${fixture.uploaderUid}/tracks`, roles: everyone },
  { name: 'audio upload', route: () => '/upload/audio', roles: everyone },
  { name: 'photo', route: () => '/photo', roles: everyone },
  { name: 'photo post', route: () => `/photo/kp${fixture.photoId}`, roles: everyone },
  { name: 'user photos tab', route: () => `/user/${fixture.uploaderUid}/photos`, roles: everyone },
  { name: 'upload photos', route: () => '/upload/photo', roles: everyone },
  { name: 'upload', route: () => '/upload', roles: everyone },
  { name: 'history', route: () => '/history', roles: everyone },
  { name: 'offline', route: () => '/offline', roles: everyone },
  { name: 'notifications', route: () => '/notifications', roles: everyone },
  { name: 'unsupported browser', route: () => '/unsupported', roles: ['guest'] },
  // The site has its administrator: the first-run page is gone, as a 404.
  { name: 'first run (done)', route: () => '/first-run', roles: ['guest'], status: 404 },
  { name: 'embedded video', route: () => `/embed/kv${fixture.videoId}`, roles: ['guest'], embed: true },
  { name: 'embedded track', route: () => `/embed/ka${fixture.audioId}`, roles: ['guest'], embed: true },
  { name: 'error page', route: () => '/error/403', roles: ['guest'], status: 403 },
  { name: 'page not found', route: () => '/no-such-page', roles: ['guest'], status: 404 },
  // The /dev pages, every one live.
  { name: 'dev', route: () => '/dev', roles: ['guest'] },
  ...DEV_PAGES.map((p): PageType => ({ name: `dev/${p}`, route: () => `/dev/${p}`, roles: ['guest'] })),
  // A new browser has no last settings page and no page settings was opened from.
  {
    name: 'settings',
    route: () => '/settings',
    roles: everyone,
    landsOn: () => '/settings/appearance',
    newBrowser: true,
  },
  { name: 'settings exit', route: () => '/settings/exit', roles: everyone, landsOn: () => '/', newBrowser: true },
  ...SETTINGS_PAGES.map(
    (p): PageType => ({
      name: `settings/${p}`,
      route: () => `/settings/${p}`,
      // Others than staff are sent from the administration pages to /settings/appearance (tested above).
      roles: ADMIN_SETTINGS_PAGES.includes(p) ? ['admin'] : everyone,
    }),
  ),
];

/**
 * Guests arrive on these from outside (a shared link, a search engine, a feed): they are loaded
 * as a guest on phones too. Elsewhere a phone loads a page as the member, whose islands are a
 * superset of the guest's, and the guest's islands are covered at the desktop width.
 */
const GUEST_ARRIVALS = new Set([
  'home',
  'video',
  'user',
  'search (keyword)',
  'collection',
  'welcome',
  'audio track',
  'photo post',
]);
const onPhones = (page: PageType): Role[] =>
  page.roles.filter((role) => role !== 'guest' || !page.roles.includes('member') || GUEST_ARRIVALS.has(page.name));

/** Two languages, each at one width (the default language on a desktop, English on a phone): both
 * layouts and both catalogs are hydrated on every page type, in half the loads of every pairing. */
const LOCALES: Array<{
  locale: LocaleCode;
  size: { width: number; height: number };
  rolesOf: (page: PageType) => Role[];
}> = [
  { locale: 'zhs', size: { width: 1280, height: 800 }, rolesOf: (page) => page.roles },
  { locale: 'en', size: { width: 375, height: 800 }, rolesOf: onPhones },
];

/** Every uncaught exception, console error and Content-Security-Policy violation of the page, from now on. */
async function collectErrors(page: Page, status?: number): Promise<string[]> {
  const errors: string[] = [];
  // Reported as console errors, so the list below collects them, with what was refused and where.
  await page.addInitScript(() => {
    addEventListener('securitypolicyviolation', (event: SecurityPolicyViolationEvent) => {
      console.error(
        `CSP violation: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'} at ${event.sourceFile}:${event.lineNumber} (${event.sample})`,
      );
    });
  });
  // An error raised by the browser itself (a failed fetch, a module that did not load) has no
  // stack frames, and then Playwright's stack is empty: the name and message are always kept.
  page.on('pageerror', (error) =>
    errors.push(`pageerror at ${page.url()}: ${error.name}: ${error.message}${error.stack ? `\n${error.stack}` : ''}`),
  );
  page.on('console', (message) => {
    // An error page's own status is not an error of the page.
    if (
      status &&
      message.text().startsWith(`Failed to load resource: the server responded with a status of ${status} `) &&
      message.location().url === page.url()
    )
      return;
    if (message.type() === 'error' || /^Refused to /.test(message.text()))
      errors.push(`console.${message.type()} at ${page.url()}: ${message.text()} (${message.location().url})`);
  });
  // Workers (the danmaku renderer, hls.js's) report their violations there, not to the page.
  page.on('worker', (worker) => {
    worker.on('console', (message) => {
      if (message.type() === 'error' || /^Refused to /.test(message.text()))
        errors.push(`worker ${worker.url()} console.${message.type()}: ${message.text()}`);
    });
    void worker
      .evaluate(() =>
        addEventListener('securitypolicyviolation', (event: SecurityPolicyViolationEvent) => {
          console.error(
            `CSP violation in a worker: ${event.effectiveDirective} refused ${event.blockedURI || 'inline'}`,
          );
        }),
      )
      .catch(() => {});
  });
  return errors;
}

/**
 * What the page did, for a load that never settles: its navigations (a reload shows as a second
 * one) and its failed requests with Chromium's reason, and whether the site's service worker
 * served them. Seven module chunks aborted at one instant under the worker, with no second
 * navigation, left a page without its shell (twice in clean runs, 2026-11-27).
 */
async function recordLoad(page: Page): Promise<() => string> {
  const started = Date.now();
  const lines: string[] = [];
  const at = () => `+${Date.now() - started} ms`;
  // The worker's own life (started, stopping, stopped; a new version) beside the page's requests:
  // seven module chunks aborted at one instant, with no second navigation, under the worker.
  const devtools = await page.context().newCDPSession(page);
  devtools.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
    for (const v of versions)
      lines.push(`${at()} service worker version ${v.versionId}: ${v.runningStatus}, ${v.status}`);
  });
  devtools.on('ServiceWorker.workerErrorReported', ({ errorMessage }) =>
    lines.push(`${at()} service worker error: ${errorMessage.errorMessage}`),
  );
  await devtools.send('ServiceWorker.enable');
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) lines.push(`${at()} navigated to ${frame.url()}`);
  });
  page.on('requestfailed', (r) =>
    lines.push(
      `${at()} ${r.failure()?.errorText ?? 'failed'}: ${r.resourceType()} ${r.url()}${r.serviceWorker() ? ' (from the service worker)' : ''}`,
    ),
  );
  return () => lines.join('\n');
}

/**
 * Counts the page's requests in flight, so a test can wait until none is. Event streams (a
 * member's live unread count, live danmaku) stay open as long as the page: they never count.
 */
function trackRequests(page: Page): () => string[] {
  const pending = new Set<Request>();
  page.on('request', (r) => {
    if (r.resourceType() !== 'eventsource') pending.add(r);
  });
  page.on('requestfinished', (r) => pending.delete(r));
  page.on('requestfailed', (r) => pending.delete(r));
  return () => [...pending].map((r) => `${r.resourceType()} ${r.url()}`);
}

/**
 * Loaded, hydrated (the islands that wait to be seen scrolled into view first) and quiet: no
 * request in flight for half a second, so what the islands fetched has answered and been shown.
 */
async function settle(page: Page, inFlight: () => string[], { shell }: { shell: boolean }): Promise<void> {
  await page.waitForLoadState('load');
  if (shell) await waitForShell(page); // an embed is the player alone, without the site's shell
  await waitForIslands(page);
  for (const island of await page.locator('astro-island[client="visible"]').all())
    await island.scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0, { timeout: 10_000 });
  let quietSince = 0;
  await expect
    .poll(
      () => {
        if (inFlight().length > 0) quietSince = 0;
        else quietSince ||= Date.now();
        return quietSince > 0 && Date.now() - quietSince >= 500;
      },
      { timeout: 15_000, intervals: [100] },
    )
    .toBe(true)
    .catch((error: Error) => {
      throw new Error(`never quiet for 0.5 s; still in flight: ${inFlight().join(', ')}\n${error.message}`);
    });
}

async function logIn(context: BrowserContext, role: Role): Promise<void> {
  if (role !== 'guest') await context.addCookies(role === 'member' ? fixture.memberCookies : fixture.adminCookies);
}

async function expectLoadsWithoutErrors(
  page: Page,
  { route, landsOn, status, embed }: PageType,
  locale: LocaleCode,
  role: Role,
): Promise<void> {
  const inFlight = trackRequests(page);
  const whatItDid = await recordLoad(page);
  const errors = await collectErrors(page, status);
  const response = await page.goto(embed ? route() : localized(route(), locale));
  expect(response?.status()).toBe(status ?? 200);
  // The policy is on: framing only by the site itself (embeds by anyone), inline scripts only by their hashes.
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain(embed ? 'frame-ancestors *' : "frame-ancestors 'self'");
  expect(policy).toMatch(/script-src 'self' [^;]*'sha256-/);
  expect(policy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  const target = landsOn?.(role);
  if (target) await expect.poll(() => pathOf(page)).toBe(localized(target, locale));
  await settle(page, inFlight, { shell: !embed }).catch(async (error: Error) => {
    const controlled = await page.evaluate(() => !!navigator.serviceWorker?.controller).catch(() => 'unknown');
    throw new Error(
      `${error.message}\nunder the service worker: ${controlled}; what the page did:\n${whatItDid() || '(nothing failed)'}`,
    );
  });
  expect(errors).toEqual([]);
}

/*
 * One browser per language, width and role, as a person browsing page after page: each page is
 * a fresh load in a new tab, the first one before the site's service worker is installed and the
 * others under it (a new browser for every page cost 40 % more time and tested only first visits).
 * A test that fails restarts the worker, and the next test opens a new browser.
 */
for (const { locale, size, rolesOf } of LOCALES) {
  for (const role of ['guest', 'member', 'admin'] as const) {
    const pages = PAGES.filter((pageType) => rolesOf(pageType).includes(role));
    test.describe(`${locale}, ${role}`, () => {
      let context: BrowserContext | undefined;
      const browsing = async (browser: Browser) => {
        if (!context) {
          context = await browser.newContext({ baseURL: E2E_BASE_URL, locale: 'zh-CN', viewport: size });
          await logIn(context, role);
        }
        return context;
      };
      test.afterAll(async () => context?.close());
      for (const pageType of pages) {
        test(`${pageType.name} (${locale}, ${role}) loads without errors`, async ({ browser }) => {
          const own = pageType.newBrowser
            ? await browser.newContext({ baseURL: E2E_BASE_URL, locale: 'zh-CN', viewport: size })
            : undefined;
          if (own) await logIn(own, role);
          const page = await (own ?? (await browsing(browser))).newPage();
          try {
            await expectLoadsWithoutErrors(page, pageType, locale, role);
          } finally {
            await (own ?? page).close();
          }
        });
      }
    });
  }
}
