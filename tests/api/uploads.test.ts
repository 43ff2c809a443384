import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { tusCreate, tusDelete, tusHead, tusMetadata as meta, tusPatch } from './media-helpers.ts';
import { startS3Server, storedObject } from './s3-server.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
const MiB = 1024 * 1024;

describe.each(BACKENDS)('resumable uploads (tus) on %s', (backend) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(backend, { env: { UPLOAD_MAX_BYTES: String(1024 * 1024) } });
  });
  afterAll(() => server?.close());

  async function member(name: string, roles = ['user']) {
    const repositories = createRepositories(server.db);
    const uid = await insertAccount(repositories, {
      email: `${name}@example.com`,
      password: 'upload password 1',
      username: name,
      roles,
    });
    return { uid, cookie: `uid=${uid}; token=${await createSession(repositories, uid)}` };
  }
  const create = (cookie: string | undefined, length: number, metadata?: string) =>
    tusCreate(server, cookie, length, metadata);
  const patch = (location: string, cookie: string, offset: number, bytes: Uint8Array<ArrayBuffer>) =>
    tusPatch(server, location, cookie, offset, bytes);
  const head = (location: string, cookie: string) => tusHead(server, location, cookie);

  it('takes an upload in pieces, resumes from the offset, and answers the media id at the last byte', async () => {
    const me = await member('Uploader');
    const bytes = new Uint8Array(300_000).map((_, i) => i % 251);
    const created = await create(me.cookie, bytes.length);
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    expect(location).toMatch(/^\/api\/video\/tus\/[0-9a-f]{32}$/);

    expect((await patch(location, me.cookie, 0, bytes.subarray(0, 100_000))).headers.get('upload-offset')).toBe(
      '100000',
    );
    // After an interruption the client asks where to go on.
    expect((await head(location, me.cookie)).headers.get('upload-offset')).toBe('100000');
    const wrongOffset = await patch(location, me.cookie, 50_000, bytes.subarray(50_000, 60_000));
    expect(wrongOffset.status).toBe(409);
    const last = await patch(location, me.cookie, 100_000, bytes.subarray(100_000));
    expect(last.status).toBe(204);
    const mediaId = last.headers.get('stream-media-id');
    expect(mediaId).toMatch(/^[0-9a-f]{24}$/);
    const row = await server.db
      .selectFrom('uploads')
      .selectAll()
      .where('media_id', '=', mediaId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uid: me.uid, file_name: 'clip.mp4', size: 300_000, max_duration_seconds: 1800 });
    expect(row.finished_at).not.toBeNull();
  });

  it('lets nobody but the owner see, resume or delete an upload', async () => {
    const owner = await member('Owner');
    const other = await member('Other');
    const location = (await create(owner.cookie, 1000)).headers.get('location')!;
    expect((await head(location, other.cookie)).status).toBe(403);
    expect((await patch(location, other.cookie, 0, new Uint8Array(10))).status).toBe(403);
    expect((await tusDelete(server, location, other.cookie)).status).toBe(403);
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

  it('lets a member have at most MAX_OPEN_UPLOADS (3) unfinished uploads at once, and frees a slot when one finishes or is cancelled', async () => {
    const me = await member('Hoarder');
    const other = await member('Neighbour');
    const open = [];
    for (let i = 0; i < 3; i++) {
      const created = await create(me.cookie, 1000);
      expect(created.status).toBe(201);
      open.push(created.headers.get('location')!);
    }
    const refused = await create(me.cookie, 1000);
    expect(refused.status).toBe(429);
    expect(JSON.parse(await refused.text())).toMatchObject({
      success: false,
      code: 'TOO_MANY_UPLOADS',
      message: 'You already have as many unfinished uploads as allowed. Finish or cancel one, then try again.',
    });
    // The refused one left nothing behind; another member is not held back.
    expect(await server.db.selectFrom('uploads').select('id').where('uid', '=', me.uid).execute()).toHaveLength(3);
    expect((await create(other.cookie, 1000)).status).toBe(201);
    // Cancelling one frees its slot; so does finishing one.
    expect((await tusDelete(server, open[0], me.cookie)).status).toBe(204);
    const next = await create(me.cookie, 10);
    expect(next.status).toBe(201);
    expect((await create(me.cookie, 10)).status).toBe(429);
    expect((await patch(next.headers.get('location')!, me.cookie, 0, new Uint8Array(10))).status).toBe(204);
    expect((await create(me.cookie, 10)).status).toBe(201);
    // An expired one does not count either.
    await server.db
      .updateTable('uploads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('uid', '=', me.uid)
      .where('finished_at', 'is', null)
      .execute();
    for (let i = 0; i < 3; i++) expect((await create(me.cookie, 10)).status).toBe(201);
  });

  it("answers every tus refusal with the API's error body in the caller's language, keeping tus's status and headers", async () => {
    const me = await member('Protocol');
    /** A refusal as the API answers them: its status, its body, and still a tus answer. */
    const refusal = async (answer: Response) => {
      expect(answer.headers.get('tus-resumable')).toBe('1.0.0');
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('x-request-id')).toBeTruthy();
      const body = await answer.json();
      expect(Object.keys(body).sort()).toEqual(['code', 'message', 'requestId', 'success']);
      expect(body.requestId).toBe(answer.headers.get('x-request-id'));
      return { status: answer.status, code: body.code, message: body.message };
    };
    // Parallel uploads (the concatenation extension) are not supported.
    const concat = await fetch(`${server.baseUrl}/api/video/tus`, {
      method: 'POST',
      headers: {
        ...TUS,
        Cookie: me.cookie,
        'Upload-Concat': 'partial',
        'Upload-Length': '10',
        'Accept-Language': 'ja',
      },
    });
    expect(await refusal(concat)).toEqual({
      status: 501,
      code: 'UNSUPPORTED_EXTENSION',
      message:
        'サーバーはこの方法のアップロードに対応していません。ファイルを分割せず、まとめてアップロードしてください。',
    });

    const location = (await create(me.cookie, 1000)).headers.get('location')!;
    const at = (offset: number, headers: Record<string, string> = {}) =>
      fetch(new URL(location, server.baseUrl), {
        method: 'PATCH',
        headers: {
          ...TUS,
          Cookie: me.cookie,
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
          'Accept-Language': 'fr',
          ...headers,
        },
        body: new Uint8Array(10),
      });
    expect(await refusal(await at(500))).toEqual({
      status: 409,
      code: 'CONFLICT',
      message: 'Cela entre en conflit avec des données existantes.',
    });
    expect(await refusal(await at(0, { 'Content-Type': 'text/plain' }))).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
    });
    const noVersion = await fetch(new URL(location, server.baseUrl), {
      method: 'HEAD',
      headers: { Cookie: me.cookie },
    });
    expect(noVersion.status).toBe(412);
    const unversioned = await fetch(new URL(location, server.baseUrl), {
      method: 'DELETE',
      headers: { Cookie: me.cookie },
    });
    expect(await refusal(unversioned)).toMatchObject({ status: 412, code: 'VALIDATION_FAILED' });
    // The hooks' own refusals too, with their codes.
    expect(await refusal(await create(undefined, 1000))).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    // A file name with a NUL (PostgreSQL refuses it) is refused, not a 500.
    const nul = await create(me.cookie, 1000, meta({ name: 'a\u0000b.mp4', maxDurationSeconds: '60' }));
    expect(await refusal(nul)).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
    expect(await refusal(await create(me.cookie, 2 * 1024 * 1024))).toMatchObject({
      status: 413,
      code: 'PAYLOAD_TOO_LARGE',
    });

    // An unknown upload: 404 with a body, except to HEAD, which never has one.
    const unknown = new URL('/api/video/tus/0123456789abcdef0123456789abcdef', server.baseUrl);
    const headUnknown = await fetch(unknown, { method: 'HEAD', headers: { ...TUS, Cookie: me.cookie } });
    expect([headUnknown.status, headUnknown.headers.get('tus-resumable'), await headUnknown.text()]).toEqual([
      404,
      '1.0.0',
      '',
    ]);
    expect(
      await refusal(
        await fetch(unknown, {
          method: 'PATCH',
          headers: {
            ...TUS,
            Cookie: me.cookie,
            'Upload-Offset': '0',
            'Content-Type': 'application/offset+octet-stream',
          },
          body: new Uint8Array(1),
        }),
      ),
    ).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect(await refusal(await tusDelete(server, unknown.pathname, me.cookie))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });
});

describe('upload CORS', () => {
  it('never answers a credentialed upload with a wildcard origin', async () => {
    const server = await startTestServer('pglite', { env: { CORS_ORIGINS: 'https://site.example' } });
    try {
      const foreign = await fetch(`${server.baseUrl}/api/video/tus`, {
        method: 'POST',
        headers: { ...TUS, 'Upload-Length': '10', Origin: 'https://evil.example' },
      });
      expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
      const site = await fetch(`${server.baseUrl}/api/video/tus`, {
        method: 'POST',
        headers: { ...TUS, 'Upload-Length': '10', Origin: 'https://site.example' },
      });
      expect(site.headers.get('access-control-allow-origin')).toBe('https://site.example');
      expect(site.headers.get('access-control-expose-headers')).toContain('Stream-Media-Id');
    } finally {
      await server.close();
    }
  });
});

describe.each(['file', 's3'] as const)('an upload interrupted by a server restart (%s store)', (store) => {
  it('resumes from the stored offset on the next server over the same data', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'kiraboshi-resume-'));
    const s3 = store === 's3' ? await startS3Server() : null;
    // 7 MiB sent as 6 + 0.5 + 0.5: in S3 a multipart part, then an incomplete part kept aside.
    const bytes = new Uint8Array(randomBytes(7 * MiB));
    const env = { DATA_DIR: dataDir, WORKER: '0', ...s3?.env };
    try {
      const first = await startTestServer('pglite', { env });
      const repositories = createRepositories(first.db);
      const uid = await insertAccount(repositories, {
        email: 'restart@example.com',
        password: 'upload password 1',
        username: 'Restart',
      });
      const cookie = `uid=${uid}; token=${await createSession(repositories, uid)}`;
      const location = (await tusCreate(first, cookie, bytes.length)).headers.get('location')!;
      expect(
        (await tusPatch(first, location, cookie, 0, bytes.subarray(0, 6 * MiB))).headers.get('upload-offset'),
      ).toBe(String(6 * MiB));
      expect(
        (await tusPatch(first, location, cookie, 6 * MiB, bytes.subarray(6 * MiB, 6.5 * MiB))).headers.get(
          'upload-offset',
        ),
      ).toBe(String(6.5 * MiB));
      await first.close();

      const second = await startTestServer('pglite', { env });
      try {
        const offset = Number((await tusHead(second, location, cookie)).headers.get('upload-offset'));
        expect(offset).toBe(6.5 * MiB);
        const rest = await tusPatch(second, location, cookie, offset, bytes.subarray(offset));
        expect(rest.status).toBe(204);
        expect(rest.headers.get('stream-media-id')).toMatch(/^[0-9a-f]{24}$/);
      } finally {
        await second.close();
      }
      const id = location.split('/').at(-1)!;
      const stored = s3 ? await storedObject(s3, id) : await readFile(join(dataDir, 'uploads', id));
      expect(Buffer.compare(stored, bytes)).toBe(0);
    } finally {
      await s3?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
