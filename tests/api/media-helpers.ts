/** Test helpers for the video pipeline: real clips made by ffmpeg, members, tus requests and uploads. */
import { afterAll, beforeAll, expect } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { TestServer as RunningServer } from './harness.ts';

/** What the helpers need of a server: its address and API, and its database for fixtures (any process of a site). */
type TestServer = Pick<RunningServer, 'baseUrl' | 'api' | 'db'>;
import { insertAccount } from '../../server/services/accounts.ts';
import { createRepositories } from '../../server/repositories/index.ts';
import { createSession } from '../../server/auth/sessions.ts';
import { binaryPath, run } from '../../server/media/ffmpeg.ts';

const TUS = { 'Tus-Resumable': '1.0.0' };
let fixtures = '';

/** tus Upload-Metadata: each value base64-encoded. */
export const tusMetadata = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** tus creation (POST) of an upload of `length` bytes; the answer's Location names it. */
export const tusCreate = (
  server: TestServer,
  cookie: string | undefined,
  length: number,
  metadata = tusMetadata({ name: 'clip.mp4', maxDurationSeconds: '1800' }),
) =>
  fetch(`${server.baseUrl}/api/video/tus`, {
    method: 'POST',
    headers: {
      ...TUS,
      'Upload-Length': String(length),
      'Upload-Metadata': metadata,
      'Accept-Language': 'en',
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });

/** tus PATCH: `bytes` written at `offset`. */
export const tusPatch = (
  server: TestServer,
  location: string,
  cookie: string,
  offset: number,
  bytes: Uint8Array<ArrayBuffer>,
) =>
  fetch(new URL(location, server.baseUrl), {
    method: 'PATCH',
    headers: {
      ...TUS,
      Cookie: cookie,
      'Upload-Offset': String(offset),
      'Content-Type': 'application/offset+octet-stream',
    },
    body: bytes,
  });

/** tus HEAD: where an interrupted upload goes on (Upload-Offset). */
export const tusHead = (server: TestServer, location: string, cookie: string) =>
  fetch(new URL(location, server.baseUrl), { method: 'HEAD', headers: { ...TUS, Cookie: cookie } });

/** tus DELETE (termination). */
export const tusDelete = (server: TestServer, location: string, cookie: string) =>
  fetch(new URL(location, server.baseUrl), { method: 'DELETE', headers: { ...TUS, Cookie: cookie } });

/** Gives the calling test file a scratch folder for its clips. */
export function useVideoFixtures() {
  beforeAll(async () => {
    fixtures = await mkdtemp(join(tmpdir(), 'kiraboshi-video-'));
  });
  afterAll(() => rm(fixtures, { recursive: true, force: true }));
}

/** A real H.264/AAC clip made with ffmpeg's test sources. */
export async function makeVideo(seconds: number, name: string, size = '320x240'): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(fixtures, name);
  const result = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `testsrc=size=${size}:rate=25:duration=${seconds}`,
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
  return new Uint8Array(await readFile(file));
}

/** A member's cookie header (a real account and session). */
export async function member(server: TestServer, name: string, roles?: string[]) {
  const repositories = createRepositories(server.db);
  const uid = await insertAccount(repositories, {
    email: `${name}@example.com`,
    password: 'video password 1',
    username: name,
  });
  if (roles) await server.db.updateTable('users').set({ roles }).where('uid', '=', uid).execute();
  return `uid=${uid}; token=${await createSession(repositories, uid)}`;
}

/** Uploads bytes through tus in one piece; answers the media id. */
export async function upload(
  server: TestServer,
  cookie: string,
  bytes: Uint8Array<ArrayBuffer>,
  maxDurationSeconds = 1800,
): Promise<string> {
  const created = await tusCreate(
    server,
    cookie,
    bytes.length,
    tusMetadata({ name: 'clip.mp4', maxDurationSeconds: String(maxDurationSeconds) }),
  );
  const done = await tusPatch(server, created.headers.get('location')!, cookie, 0, bytes);
  expect(done.status).toBe(204);
  return done.headers.get('stream-media-id')!;
}

/** Polls the media status until it reaches one of the given states (by default a final one). */
export async function statusOf(
  server: TestServer,
  cookie: string,
  mediaId: string,
  until = ['ready', 'rejected', 'failed'],
) {
  let body: Record<string, any> = {};
  await expect
    .poll(
      async () => {
        body = await (
          await server.api(`video/media/status?mediaId=${mediaId}`, { headers: { Cookie: cookie } })
        ).json();
        return until.includes(body.status);
      },
      { timeout: 60_000, interval: 200 },
    )
    .toBe(true);
  return body;
}

/**
 * An upload and its media item as the pipeline leaves them once checked (status ready, one 360p
 * rendition), written straight to the database: what video/upload then takes by `mediaId`.
 */
export async function insertCheckedMedia(
  server: Pick<RunningServer, 'db'>,
  uid: number,
  options: { durationMs?: number; expiresAt?: Date } = {},
): Promise<{ uploadId: string; mediaId: string }> {
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await server.db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'v.mp4',
      size: 1,
      max_duration_seconds: 1800,
      expires_at: options.expiresAt ?? new Date(),
      media_id: mediaId,
    })
    .execute();
  await server.db
    .insertInto('media')
    .values({
      media_id: mediaId,
      upload_id: uploadId,
      uid,
      status: 'ready',
      duration_ms: options.durationMs ?? 60_000,
      width: 640,
      height: 360,
      renditions: [360],
    })
    .execute();
  return { uploadId, mediaId };
}

/** An approved (or pending) video of `durationMs`, written straight to the database. */
export async function insertVideo(
  server: TestServer,
  cookie: string,
  durationMs: number,
  status: 'approved' | 'pending' = 'approved',
) {
  const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
  const { mediaId } = await insertCheckedMedia(server, uid, { durationMs });
  const { video_id } = await server.db
    .insertInto('videos')
    .values({
      uploader_uid: uid,
      title: `视频 ${mediaId.slice(0, 4)}`,
      status,
      duration_ms: durationMs,
      search_text: 'x',
    })
    .returning('video_id')
    .executeTakeFirstOrThrow();
  await server.db.insertInto('video_parts').values({ video_id, part_index: 0, media_id: mediaId }).execute();
  return video_id;
}

/**
 * A real audio file made with ffmpeg: a sine tone (440 Hz) in `format` (flac, mp3, m4a, wav,
 * ogg, opus), with an embedded cover picture when `cover` is set (as music files carry one).
 */
export async function makeAudio(
  seconds: number,
  name: string,
  options: { cover?: boolean } = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const file = join(fixtures, name);
  const picture = join(fixtures, `${name}.cover.png`);
  if (options.cover) {
    const drawn = await run(binaryPath('ffmpeg'), [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=300x300:duration=1',
      '-frames:v',
      '1',
      picture,
    ]);
    if (drawn.code !== 0) throw new Error(drawn.stderr);
  }
  const codec: Record<string, string[]> = {
    flac: ['-c:a', 'flac'],
    mp3: ['-c:a', 'libmp3lame', '-b:a', '128k'],
    m4a: ['-c:a', 'aac'],
    wav: ['-c:a', 'pcm_s16le'],
    ogg: ['-c:a', 'libvorbis'],
    opus: ['-c:a', 'libopus'],
  };
  const format = name.split('.').pop()!;
  const result = await run(binaryPath('ffmpeg'), [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=440:duration=${seconds}`,
    ...(options.cover
      ? [
          '-i',
          picture,
          '-map',
          '0:a',
          '-map',
          '1:v',
          '-c:v',
          format === 'mp3' ? 'mjpeg' : 'png',
          '-disposition:v',
          'attached_pic',
        ]
      : []),
    ...(format === 'mp3' ? ['-id3v2_version', '3'] : []),
    ...codec[format],
    file,
  ]);
  if (result.code !== 0) throw new Error(result.stderr);
  return new Uint8Array(await readFile(file));
}

/** Uploads an audio file through tus (kind=audio) in one piece; answers the media id. */
export async function uploadAudio(
  server: TestServer,
  cookie: string,
  bytes: Uint8Array<ArrayBuffer>,
  name = 'track.flac',
  maxDurationSeconds?: number,
): Promise<string> {
  const created = await tusCreate(
    server,
    cookie,
    bytes.length,
    tusMetadata({
      name,
      kind: 'audio',
      ...(maxDurationSeconds ? { maxDurationSeconds: String(maxDurationSeconds) } : {}),
    }),
  );
  expect(created.status).toBe(201);
  const done = await tusPatch(server, created.headers.get('location')!, cookie, 0, bytes);
  expect(done.status).toBe(204);
  return done.headers.get('stream-media-id')!;
}

/** An approved (or pending) audio track of `durationMs`, written straight to the database. */
export async function insertAudio(
  server: TestServer,
  cookie: string,
  durationMs: number,
  status: 'approved' | 'pending' = 'approved',
) {
  const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await server.db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'a.flac',
      size: 1,
      max_duration_seconds: 7200,
      kind: 'audio',
      expires_at: new Date(),
      media_id: mediaId,
    })
    .execute();
  await server.db
    .insertInto('media')
    .values({
      media_id: mediaId,
      upload_id: uploadId,
      uid,
      kind: 'audio',
      status: 'ready',
      duration_ms: durationMs,
      renditions: [64, 128],
      waveform: JSON.stringify(Array.from({ length: 1000 }, (_, i) => Math.abs(Math.sin(i / 40)))),
      loudness_lufs: -16,
      true_peak_db: -1.5,
    })
    .execute();
  const { audio_id } = await server.db
    .insertInto('audio_tracks')
    .values({
      uploader_uid: uid,
      media_id: mediaId,
      title: `曲 ${mediaId.slice(0, 4)}`,
      status,
      duration_ms: durationMs,
      category: 'music',
      copyright: 'original',
      original_author: null,
      original_link: null,
      cover: null,
      search_text: 'x',
    })
    .returning('audio_id')
    .executeTakeFirstOrThrow();
  return audio_id;
}

/** An approved (or pending) photo post of one image, written straight to the database. */
export async function insertPhoto(server: TestServer, cookie: string, status: 'approved' | 'pending' = 'approved') {
  const uid = Number(/uid=(\d+)/.exec(cookie)![1]);
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await server.db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'p.jpg',
      size: 1,
      max_duration_seconds: 0,
      expires_at: new Date(),
      media_id: mediaId,
      kind: 'photo',
    })
    .execute();
  await server.db
    .insertInto('media')
    .values({ media_id: mediaId, upload_id: uploadId, uid, status: 'probed', width: 800, height: 600, kind: 'photo' })
    .execute();
  const { photo_id } = await server.db
    .insertInto('photos')
    .values({
      uploader_uid: uid,
      title: `图片 ${mediaId.slice(0, 4)}`,
      copyright: 'original',
      status,
      search_text: 'x',
    })
    .returning('photo_id')
    .executeTakeFirstOrThrow();
  await server.db
    .insertInto('photo_images')
    .values({ photo_id, position: 0, media_id: mediaId, alt: 'An image', width: 800, height: 600, widths: [320, 640] })
    .execute();
  return photo_id;
}
