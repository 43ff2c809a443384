/**
 * Shared helpers of the browser tests: the message catalogs (read from src/i18n as the oracle,
 * never through the product's own translation code), the locale table as the spec states it,
 * and small page utilities.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type Page,
  type Response,
} from '@playwright/test';

export const LOCALE_CODES = ['zhs', 'zht', 'en', 'ja', 'ko', 'vi', 'id', 'fr', 'yue', 'ii'] as const;
export type LocaleCode = (typeof LOCALE_CODES)[number];

/** The `<html lang>` each locale must carry (SPEC §2). */
export const HTML_LANG: Record<LocaleCode, string> = {
  zhs: 'zh-Hans-CN',
  zht: 'zh-Hant-TW',
  en: 'en-US',
  ja: 'ja-JP',
  ko: 'ko-KR',
  vi: 'vi-VN',
  id: 'id-ID',
  fr: 'fr-FR',
  yue: 'zh-Hant-HK',
  ii: 'ii',
};

/** '/', '/en/', ... : the home of a locale (the default one has no prefix). */
export function homePath(locale: LocaleCode): string {
  return locale === 'zhs' ? '/' : `/${locale}/`;
}

/** A route under a locale's prefix: ('/search', 'en') -> '/en/search'. */
export function localized(route: string, locale: LocaleCode): string {
  return locale === 'zhs' ? route : `/${locale}${route}`;
}

const I18N_DIR = join(process.cwd(), 'src', 'i18n');
const catalogCache = new Map<string, Record<string, unknown>>();

function catalog(locale: Exclude<LocaleCode, 'ii'>): Record<string, unknown> {
  let messages = catalogCache.get(locale);
  if (!messages) {
    messages = JSON.parse(readFileSync(join(I18N_DIR, `${locale}.json`), 'utf8')) as Record<string, unknown>;
    catalogCache.set(locale, messages);
  }
  return messages;
}

/** A catalog value by dotted key; the in-context mode (ii) shows the key itself as ⟦key⟧. */
export function msg(locale: LocaleCode, key: string): string {
  if (locale === 'ii') return `⟦${key}⟧`;
  let node: unknown = catalog(locale);
  for (const part of key.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  if (typeof node !== 'string') throw new Error(`catalog ${locale} has no message ${key}`);
  return node;
}

/** The pathname of the page's current URL. */
export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

/** Every response of a navigation, first (the one asked for) to last (the one shown). */
export async function responseChain(final: Response | null): Promise<Array<{ path: string; status: number }>> {
  const chain: Array<{ path: string; status: number }> = [];
  let request = final?.request() ?? null;
  while (request) {
    const response = await request.response();
    chain.unshift({ path: new URL(request.url()).pathname, status: response?.status() ?? 0 });
    request = request.redirectedFrom();
  }
  return chain;
}

/**
 * Waits until every island the page hydrates at load has hydrated (Astro drops the `ssr`
 * attribute then). Islands that wait to be scrolled into view (client:visible) are not awaited.
 */
export async function waitForIslands(page: Page): Promise<void> {
  await expect(page.locator('astro-island[ssr]:not([client="visible"])')).toHaveCount(0, { timeout: 10_000 });
}

/**
 * The player loads its stream (hls.js and the playlists) when the viewer means to play
 * (use-hls-source.ts): a pointer over the player shows that intent. Waits until it is attached.
 */
export async function showPlayIntent(page: Page, source: string | RegExp = /hls\.js|native/): Promise<void> {
  await page.locator('[data-player] .player-main').hover();
  await expect(page.locator('[data-player]')).toHaveAttribute('data-source', source, { timeout: 20_000 });
}

/**
 * Notes the text of every toast the page shows from now on (until it navigates), as it shows it:
 * a toast lasts 2 s, and a busy machine may look later than that. Returns a reader of the texts.
 */
export async function noteToasts(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const seen = new Set<string>();
    (window as unknown as { toastsSeen: Set<string> }).toastsSeen = seen;
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.toast')) if (toast.textContent) seen.add(toast.textContent);
    }).observe(document.body, { childList: true, subtree: true, characterData: true });
  });
  return () => page.evaluate(() => [...(window as unknown as { toastsSeen: Set<string> }).toastsSeen]);
}

/** Waits until the shell script ran (it sets the breakpoint attribute and window.kirara). */
export async function waitForShell(page: Page): Promise<void> {
  // The shell is a module script: on a busy machine it can run seconds after the page has loaded.
  await expect(page.locator('html')).toHaveAttribute('data-breakpoint', /^(mobile|tablet|computer)$/, {
    timeout: 15_000,
  });
  await page.waitForFunction(() => 'kirara' in window, undefined, { timeout: 15_000 });
}

/** The e2e server's folder (scripts/e2e-server.sh): its outbox and the invitation codes it made. */
export const E2E = process.env.E2E_DIR || join('tests', '.tmp', 'e2e');
/** Where the e2e server listens (playwright.config.ts uses the same). */
export const E2E_BASE_URL = `http://127.0.0.1:${Number(process.env.E2E_PORT) || 4477}`;
export const ADMIN = { email: 'admin@kiraboshi.test', password: 'e2e administrator secret' };
export const invitationCodes = () => readFileSync(join(E2E, 'invitation-codes.txt'), 'utf8').trim().split('\n');

/** The code of the newest mail to an address, read from the server's outbox. */
/** How many mails the server's outbox holds for an address (other tests write there too). */
export function mailsTo(address: string): number {
  const dir = join(E2E, 'outbox');
  return readdirSync(dir).filter(
    (f) => f.endsWith('.eml') && readFileSync(join(dir, f), 'utf8').includes(`To: ${address}`),
  ).length;
}

export async function mailedCode(address: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      () => {
        const dir = join(E2E, 'outbox');
        const files = readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse();
        for (const file of files) {
          const eml = readFileSync(join(dir, file), 'utf8');
          if (eml.includes(`To: ${address}`)) return (code = /^Subject: (\d{6}) /m.exec(eml)?.[1]);
        }
        return undefined;
      },
      { timeout: 10_000 },
    )
    .toBeTruthy();
  return code!;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function ok(response: Awaited<ReturnType<APIRequestContext['post']>>): Promise<any> {
  if (!response.ok()) throw new Error(`${response.url()} answered ${response.status()}: ${await response.text()}`);
  return response.json();
}

/** Logs a browser context in through the API (the session cookies land in the page's context). */
export async function logInByApi(page: Page, email: string, password: string): Promise<number> {
  const body = await ok(await page.request.post(`${E2E_BASE_URL}/api/user/login`, { data: { email, password } }));
  return body.uid ?? Number((await page.context().cookies()).find((c) => c.name === 'uid')?.value);
}

const randomAddress = () => `10.${randomBytes(3).join('.')}`;
let adminContext: Promise<APIRequestContext> | undefined;

/** An API client logged in as the e2e administrator, one per test worker (logins are rate-limited). */
export function adminRequest(): Promise<APIRequestContext> {
  adminContext ??= (async () => {
    const context = await playwrightRequest.newContext({
      baseURL: E2E_BASE_URL,
      extraHTTPHeaders: { 'X-Forwarded-For': randomAddress() },
    });
    await ok(await context.post('/api/user/login', { data: ADMIN }));
    return context;
  })();
  return adminContext;
}

/** Logs `page`'s context in as the administrator, sharing the worker's one administrator session. */
export async function logInAsAdmin(page: Page): Promise<void> {
  const { cookies } = await (await adminRequest()).storageState();
  await page.context().addCookies(cookies);
}

/**
 * A new member, signed up through the API as the site does it (a mailed code and an invitation
 * code the administrator makes), and logged in in `page`'s context. Each sign-up comes from its
 * own address, so tests never meet the per-address registration limit.
 */
export async function signUpByApi(
  page: Page,
  nickname: string,
): Promise<{ uid: number; email: string; password: string; username: string }> {
  const tag = randomBytes(4).toString('hex');
  const email = `${tag}@members.kiraboshi.test`;
  const username = `m${tag}`;
  const password = 'a member of the e2e tests';
  const headers = { 'X-Forwarded-For': randomAddress() };
  const base = E2E_BASE_URL;
  const invitationCode = (await ok(await (await adminRequest()).post(`${base}/api/user/createInvitationCode`)))
    .invitationCodeResult.invitationCode;
  await ok(
    await page.request.post(`${base}/api/user/requestSendVerificationCode`, {
      data: { email, clientLanguage: 'en' },
      headers,
    }),
  );
  const verificationCode = await mailedCode(email);
  const { uid } = await ok(
    await page.request.post(`${base}/api/user/registering`, {
      data: {
        email,
        password,
        verificationCode,
        username,
        userNickname: nickname,
        invitationCode,
        clientLanguage: 'en',
      },
      headers,
    }),
  );
  return { uid, email, password, username };
}

const clipCache = new Map<string, Buffer>();

/** A real H.264/AAC clip from ffmpeg's test sources (the server's own ffmpeg), made once per worker. */
export async function makeClip(seconds = 6, size = '640x360'): Promise<Buffer> {
  const key = `${seconds}:${size}`;
  const cached = clipCache.get(key);
  if (cached) return cached;
  const { binaryPath, run } = await import('../../server/media/ffmpeg.ts');
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'kiraboshi-e2e-clip-'));
  const file = join(dir, 'clip.mp4');
  const result = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc2=size=${size}:rate=25:duration=${seconds}`,
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
    file,
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  const bytes = readFileSync(file);
  rmSync(dir, { recursive: true, force: true });
  clipCache.set(key, bytes);
  return bytes;
}

/** A picture for a cover, in `dir`: one 800×600 frame of ffmpeg's test source. */
export async function makePicture(dir: string): Promise<string> {
  const { binaryPath, run } = await import('../../server/media/ffmpeg.ts');
  const file = join(dir, 'cover.png');
  const result = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=800x600',
    '-frames:v',
    '1',
    file,
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  return file;
}

export interface PublishedVideo {
  videoId: number;
  mediaId: string;
  title: string;
}

/**
 * A video published as a member would: the clip through tus, processed by the real pipeline,
 * committed with `fields`, and (unless `approve: false`) approved by the administrator.
 * `page` must be logged in as the uploader (signUpByApi).
 */
export async function publishVideoByApi(
  page: Page,
  fields: {
    title: string;
    description?: string;
    videoCategory?: string;
    videoTagList?: number[];
    pushToFeed?: boolean;
    seconds?: number /** The clip's WIDTHxHEIGHT (makeClip's default: 640x360, one rung). */;
    size?: string;
    approve?: boolean;
  },
): Promise<PublishedVideo> {
  const base = E2E_BASE_URL;
  const bytes = await makeClip(fields.seconds ?? 6, fields.size);
  const tus = { 'Tus-Resumable': '1.0.0' };
  const metadata = `name ${btoa('clip.mp4')},maxDurationSeconds ${btoa('1800')}`;
  const created = await page.request.post(`${base}/api/video/tus`, {
    headers: { ...tus, 'Upload-Length': String(bytes.length), 'Upload-Metadata': metadata },
  });
  if (created.status() !== 201) throw new Error(`tus create answered ${created.status()}: ${await created.text()}`);
  const done = await page.request.patch(new URL(created.headers().location, base).toString(), {
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  const mediaId = done.headers()['stream-media-id'];
  if (!mediaId) throw new Error(`the last byte answered ${done.status()} without a media id`);
  await expect
    .poll(
      async () => (await (await page.request.get(`${base}/api/video/media/status?mediaId=${mediaId}`)).json()).status,
      { timeout: 90_000, intervals: [300] },
    )
    .toMatch(/^(playable|ready)$/);
  const { videoId } = await ok(
    await page.request.post(`${base}/api/video/upload`, {
      data: {
        title: fields.title,
        description: fields.description ?? '',
        videoCategory: fields.videoCategory ?? 'anime',
        copyright: 'original',
        ensureOriginal: true,
        videoTagList: fields.videoTagList ?? [],
        pushToFeed: fields.pushToFeed ?? false,
        videoPart: [{ mediaId, videoPartTitle: '' }],
      },
    }),
  );
  if (fields.approve !== false)
    await ok(await (await adminRequest()).post('/api/video/pending/approved', { data: { videoId } }));
  return { videoId, mediaId, title: fields.title };
}

/**
 * A photo post through the API as the site's uploader sends it: each image (sharp-generated
 * PNGs of the given sizes and colours) uploaded through tus as kind photo, the post committed
 * with alt texts, rendered, and (unless `approve: false`) approved by the administrator.
 */
export async function publishPhotoByApi(
  page: Page,
  fields: {
    title: string;
    images?: Array<{ width: number; height: number; colour: string; alt: string }>;
    approve?: boolean;
  },
): Promise<{ photoId: number }> {
  const { default: sharp } = await import('sharp');
  const base = E2E_BASE_URL;
  const images = fields.images ?? [{ width: 900, height: 600, colour: '#e0457b', alt: 'A pink square' }];
  const tus = { 'Tus-Resumable': '1.0.0' };
  const uploaded = [];
  for (const image of images) {
    const bytes = await sharp({
      create: { width: image.width, height: image.height, channels: 3, background: image.colour },
    })
      .png()
      .toBuffer();
    const created = await page.request.post(`${base}/api/video/tus`, {
      headers: {
        ...tus,
        'Upload-Length': String(bytes.length),
        'Upload-Metadata': `name ${btoa('photo.png')},kind ${btoa('photo')}`,
      },
    });
    if (created.status() !== 201) throw new Error(`tus create answered ${created.status()}: ${await created.text()}`);
    const done = await page.request.patch(new URL(created.headers().location, base).toString(), {
      headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
      data: bytes,
    });
    uploaded.push({ mediaId: done.headers()['stream-media-id'], alt: image.alt });
  }
  const { photoId } = await ok(
    await page.request.post(`${base}/api/photo/upload`, {
      data: { title: fields.title, copyright: 'original', images: uploaded },
    }),
  );
  await expect
    .poll(async () => (await (await page.request.get(`${base}/api/photo?photoId=${photoId}`)).json()).photo.status, {
      timeout: 60_000,
      intervals: [300],
    })
    .toBe('pending');
  if (fields.approve !== false)
    await ok(await (await adminRequest()).post('/api/photo/pending/approved', { data: { photoId } }));
  return { photoId };
}

/** With SHOTS=<dir>, saves a full-page screenshot of `page` at 375 and 1280 px as <name>-<width>.png. */
export async function shoot(page: Page, name: string): Promise<void> {
  const shots = process.env.SHOTS;
  if (!shots) return;
  const size = page.viewportSize()!;
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 800 : 900 });
    await page.screenshot({ path: join(shots, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(size);
}

/** A real audio file: a sine tone as FLAC with an embedded cover (the server's own ffmpeg). */
export async function makeTone(seconds = 20, file = join(E2E, `tone-${seconds}.flac`)): Promise<string> {
  if (existsSync(file)) return file;
  const { binaryPath, run } = await import('../../server/media/ffmpeg.ts');
  const cover = `${file}.png`;
  const drawn = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=400x400:duration=1',
    '-frames:v',
    '1',
    cover,
  ]);
  if (drawn.code !== 0) throw new Error(drawn.stderr);
  const made = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=330:beep_factor=4:duration=${seconds}`,
    '-i',
    cover,
    '-map',
    '0:a',
    '-map',
    '1:v',
    '-c:v',
    'png',
    '-disposition:v',
    'attached_pic',
    '-c:a',
    'flac',
    file,
  ]);
  if (made.code !== 0) throw new Error(made.stderr);
  return file;
}

/**
 * An audio track published as a member would: the tone through tus (kind=audio), processed by
 * the real audio pipeline, committed, and (unless `approve: false`) approved by the administrator.
 */
export async function publishAudioByApi(
  page: Page,
  fields: { title: string; artist?: string; seconds?: number; approve?: boolean },
): Promise<{ audioId: number; mediaId: string }> {
  const base = E2E_BASE_URL;
  const bytes = readFileSync(await makeTone(fields.seconds ?? 20));
  const tus = { 'Tus-Resumable': '1.0.0' };
  const created = await page.request.post(`${base}/api/video/tus`, {
    headers: {
      ...tus,
      'Upload-Length': String(bytes.length),
      'Upload-Metadata': `name ${btoa('tone.flac')},kind ${btoa('audio')}`,
    },
  });
  if (created.status() !== 201) throw new Error(`tus create answered ${created.status()}: ${await created.text()}`);
  const done = await page.request.patch(new URL(created.headers().location, base).toString(), {
    headers: { ...tus, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' },
    data: bytes,
  });
  const mediaId = done.headers()['stream-media-id'];
  if (!mediaId) throw new Error(`the last byte answered ${done.status()} without a media id`);
  await expect
    .poll(
      async () => (await (await page.request.get(`${base}/api/video/media/status?mediaId=${mediaId}`)).json()).status,
      { timeout: 90_000, intervals: [300] },
    )
    .toBe('ready');
  const { audioId } = await ok(
    await page.request.post(`${base}/api/audio/upload`, {
      data: { mediaId, title: fields.title, artist: fields.artist ?? '', copyright: 'original', ensureOriginal: true },
    }),
  );
  if (fields.approve !== false)
    await ok(await (await adminRequest()).post('/api/audio/pending/approved', { data: { audioId } }));
  return { audioId, mediaId };
}
