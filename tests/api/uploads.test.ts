import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createSession } from '../../server/auth/sessions.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const meta = (fields: Record<string, string>) =>
  Object.entries(fields).map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`).join(',');

describe.each(BACKENDS)('resumable uploads (tus) on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { UPLOAD_MAX_BYTES: String(1024 * 1024) } });
  });
  afterAll(() => server?.close());

  async function member(name: string, roles = ['user']) {
    const uid = await insertAccount(server.db, { email: `${name}@example.com`, password: 'upload password 1', username: name, roles });
    return { uid, cookie: `uid=${uid}; token=${await createSession(server.db, uid)}` };
  }
  const create = (cookie: string | undefined, length: number, metadata = meta({ name: 'clip.mp4', maxDurationSeconds: '1800' })) =>
    fetch(`${server.baseUrl}/api/video/tus`, {
      method: 'POST',
      headers: { ...TUS, 'Upload-Length': String(length), 'Upload-Metadata': metadata, 'Accept-Language': 'en', ...(cookie ? { Cookie: cookie } : {}) },
    });
  const patch = (location: string, cookie: string, offset: number, bytes: Uint8Array<ArrayBuffer>) =>
    fetch(new URL(location, server.baseUrl), {
      method: 'PATCH',
      headers: { ...TUS, Cookie: cookie, 'Upload-Offset': String(offset), 'Content-Type': 'application/offset+octet-stream' },
      body: bytes,
    });
  const head = (location: string, cookie: string) => fetch(new URL(location, server.baseUrl), { method: 'HEAD', headers: { ...TUS, Cookie: cookie } });

  it('takes an upload in pieces, resumes from the offset, and answers the media id at the last byte', async () => {
    const me = await member('Uploader');
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const created = await create(me.cookie, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/video\/tus\/[0-9a-f]{32}$/);

    expect((await patch(location, me.cookie, 0, bytes.subarray(0, 100_000))).headers.get('upload-offset')).toBe('100000');
    // After an interruption the client asks where to go on.
    expect((await head(location, me.cookie)).headers.get('upload-offset')).toBe('100000');
    const wrongOffset = await patch(location, me.cookie, 50_000, bytes.subarray(50_000, 60_000));
    expect(wrongOffset.status).toBe(409);
    const last = await patch(location, me.cookie, 100_000, bytes.subarray(100_000));
    expect(last.status).toBe(204);
    const mediaId = last.headers.get('stream-media-id');
    expect(mediaId).toMatch(/^[0-9a-f]{24}$/);
    const row = await server.db.selectFrom('uploads').selectAll().where('media_id', '=', mediaId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uid: me.uid, file_name: 'clip.mp4', size: 300_000, max_duration_seconds: 1800 });
    expect(row.finished_at).not.toBeNull();
  });

  it('lets nobody but the owner see, resume or delete an upload', async () => {
    const owner = await member('Owner');
    const other = await member('Other');
    const location = (await create(owner.cookie, 1000)).headers.get('location')!;
    expect((await head(location, other.cookie)).status).toBe(403);
    expect((await patch(location, other.cookie, 0, new Uint8Array(10))).status).toBe(403);
    const del = await fetch(new URL(location, server.baseUrl), { method: 'DELETE', headers: { ...TUS, Cookie: other.cookie } });
    expect(del.status).toBe(403);
    expect((await head(location, owner.cookie)).headers.get('upload-offset')).toBe('0');
    expect((await head('/api/video/tus/0123456789abcdef0123456789abcdef', owner.cookie)).status).toBe(404);
  });

  it('refuses guests, banned members, oversize files and bad metadata with our error body', async () => {
    const guest = await create(undefined, 1000);
    expect(guest.status).toBe(401);
    expect(JSON.parse(await guest.text())).toMatchObject({ code: 'UNAUTHORIZED', message: 'Please log in first.' });
    const banned = await member('BannedUploader', ['blocked']);
    expect((await create(banned.cookie, 1000)).status).toBe(403);
    const me = await member('Careful');
    expect((await create(me.cookie, 2 * 1024 * 1024)).status).toBe(413);
    expect((await create(me.cookie, 1000, meta({ name: 'long.mp4', maxDurationSeconds: '3600' }))).status).toBe(400);
    expect((await create(me.cookie, 1000, meta({ maxDurationSeconds: '60' }))).status).toBe(400);
  });
});

describe('upload CORS', () => {
  it('never answers a credentialed upload with a wildcard origin', async () => {
    const server = await startTestServer('pglite', { env: { CORS_ORIGINS: 'https://site.example' } });
    try {
      const foreign = await fetch(`${server.baseUrl}/api/video/tus`, { method: 'POST', headers: { ...TUS, 'Upload-Length': '10', Origin: 'https://evil.example' } });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const site = await fetch(`${server.baseUrl}/api/video/tus`, { method: 'POST', headers: { ...TUS, 'Upload-Length': '10', Origin: 'https://site.example' } });
      expect(site.headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect(site.headers.get('access-control-expose-headers')).toContain('Stream-Media-Id');
    } finally {
      await server.close();
    }
  });
});

describe('an upload interrupted by a server restart', () => {
  it('resumes from the stored offset on the next server over the same data', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dataDir = await mkdtemp(join(tmpdir(), 'kiraboshi-resume-'));
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7) % 253);
    const env = { DATA_DIR: dataDir, WORKER: '0' };
    try {
      const first = await startTestServer('pglite', { env });
      const uid = await insertAccount(first.db, { email: 'restart@example.com', password: 'upload password 1', username: 'Restart' });
      const cookie = `uid=${uid}; token=${await createSession(first.db, uid)}`;
      const created = await fetch(`${first.baseUrl}/api/video/tus`, {
        method: 'POST', headers: { ...TUS, Cookie: cookie, 'Upload-Length': String(bytes.length), 'Upload-Metadata': meta({ name: 'long.mp4', maxDurationSeconds: '1800' }) },
      });
      const location = created.headers.get('location')!;
      const half = await fetch(new URL(location, first.baseUrl), {
        method: 'PATCH', headers: { ...TUS, Cookie: cookie, 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: bytes.subarray(0, 120_000),
      });
      expect(half.headers.get('upload-offset')).toBe('120000');
      await first.close();

      const second = await startTestServer('pglite', { env });
      try {
        const offset = (await fetch(new URL(location, second.baseUrl), { method: 'HEAD', headers: { ...TUS, Cookie: cookie } })).headers.get('upload-offset');
        expect(offset).toBe('120000');
        const rest = await fetch(new URL(location, second.baseUrl), {
          method: 'PATCH', headers: { ...TUS, Cookie: cookie, 'Upload-Offset': offset!, 'Content-Type': 'application/offset+octet-stream' }, body: bytes.subarray(120_000),
        });
        expect(rest.status).toBe(204);
        expect(rest.headers.get('stream-media-id')).toMatch(/^[0-9a-f]{24}$/);
      } finally {
        await second.close();
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
