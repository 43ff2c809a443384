import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import sharp from 'sharp';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { grantUpload, readGrant, UPLOAD_URL_LIFETIME_MS } from '../../server/media/image-service.ts';

/** A real photo-like JPEG carrying EXIF data (camera notes, a copyright) that must not survive. */
const photoWithExif = () =>
  sharp({ create: { width: 800, height: 600, channels: 3, background: '#39c5bb' } })
    .withExif({ IFD0: { Copyright: 'private note', Make: 'SecretCam' } })
    .jpeg()
    .toBuffer();

describe.each(BACKENDS)('avatars through the image service on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend);
  });
  afterAll(() => server?.close());

  async function member(name: string, roles = ['user']) {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, {
      email: `${name}@example.com`,
      password: 'avatar password 1',
      username: name,
      roles,
    });
    return { uid, cookie: `uid=${uid}; token=${await createSession(repositories, uid)}` };
  }
  const preUpload = async (cookie?: string) =>
    server.api('user/avatar/preUpload', { headers: cookie ? { Cookie: cookie } : {} });
  const upload = (url: string, body: Blob, name = 'avatar.jpg') => {
    const form = new FormData();
    form.set('file', body, name);
    return fetch(url, { method: 'POST', body: form });
  };

  it('re-encodes an uploaded photo to a 256 px WebP without metadata and makes it the avatar', async () => {
    const me = await member('AvatarOwner');
    const grant = await preUpload(me.cookie);
    expect(grant.status).toBe(200);
    const { result } = (await grant.json()) as { result: { signedUrl: string; fileName: string } };
    expect(result.signedUrl).toMatch(new RegExp(`^${server.baseUrl}/api/images/upload\\?`));
    expect(result.fileName).toMatch(new RegExp(`^${me.uid}-[\\w-]+\\.webp$`));
    const uploaded = await upload(
      result.signedUrl,
      new Blob([new Uint8Array(await photoWithExif())], { type: 'image/jpeg' }),
    );
    expect(uploaded.status).toBe(200);
    const { url } = (await uploaded.json()) as { url: string };
    expect(url).toBe(`/media/images/avatars/${result.fileName}`);

    const served = await fetch(server.baseUrl + url);
    expect(served.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['webp', 256, 256, undefined]);
    const info = (await (await server.api(`user/info?uid=${me.uid}`)).json()) as { result: { avatar: string } };
    expect(info.result.avatar).toBe(url);

    // The signed link is good for one picture: a second upload through it is refused, and the
    // first picture stays.
    const again = await upload(
      result.signedUrl,
      new Blob([new Uint8Array(await photoWithExif())], { type: 'image/jpeg' }),
    );
    expect(again.status).toBe(403);
    expect(((await again.json()) as { code: string }).code).toBe('UPLOAD_EXPIRED');
    expect((await fetch(server.baseUrl + url)).status).toBe(200);
  });

  it('refuses non-images, oversized files, tampered and reused-for-another-user links', async () => {
    const me = await member('AvatarRules');
    const grant = async () =>
      ((await (await preUpload(me.cookie)).json()) as { result: { signedUrl: string } }).result.signedUrl;
    const text = await upload(
      await grant(),
      new Blob(['just some text, not a picture'], { type: 'image/png' }),
      'fake.png',
    );
    expect([text.status, ((await text.json()) as { code: string }).code]).toEqual([415, 'NOT_AN_IMAGE']);
    const huge = await upload(await grant(), new Blob([new Uint8Array(6 * 1024 * 1024)]), 'huge.jpg');
    expect(huge.status).toBe(413);
    const tampered = new URL(await grant());
    tampered.searchParams.set('uid', '1');
    expect((await upload(tampered.toString(), new Blob([new Uint8Array(await photoWithExif())]))).status).toBe(403);
    const missing = await fetch(await grant(), { method: 'POST', body: new FormData() });
    expect(missing.status).toBe(400);
  });

  it('gives upload links to members only', async () => {
    expect((await preUpload()).status).toBe(401);
    const blocked = await member('AvatarBlocked', ['blocked']);
    expect((await preUpload(blocked.cookie)).status).toBe(403);
  });
});

describe('upload grants', () => {
  it('expire after their lifetime', () => {
    const { signedUrl } = grantUpload('secret', 'http://x', '/api', 'avatar', 7);
    const query = Object.fromEntries(new URL(signedUrl).searchParams);
    expect(readGrant('secret', query)).toMatchObject({ uid: 7, kind: 'avatar' });
    expect(readGrant('other secret', query)).toBeNull();
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + UPLOAD_URL_LIFETIME_MS + 1000);
    expect(() => readGrant('secret', query)).toThrow('UPLOAD_EXPIRED');
    vi.restoreAllMocks();
  });
});
