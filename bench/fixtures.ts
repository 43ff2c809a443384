/**
 * What the benches put straight into the database of the server they started
 * (tests/api/harness.ts): an approved video, and a reproducible stream of danmaku for it.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../server/db/schema.ts';
import { createRepositories } from '../server/repositories/index.ts';
import { createSession } from '../server/auth/sessions.ts';

/** An approved one-part video over a ready media item (its HLS files, if any, are the caller's). */
export async function insertApprovedVideo(
  db: Kysely<Database>,
  uid: number,
  video: {
    title: string;
    durationMs: number;
    width: number;
    height: number;
    renditions: number[];
    frameRate?: number;
  },
): Promise<{ videoId: number; mediaId: string }> {
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  const { title, durationMs, width, height, renditions, frameRate = null } = video;
  await db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'v.mp4',
      size: 1,
      max_duration_seconds: 3600,
      expires_at: new Date(),
      media_id: mediaId,
    })
    .execute();
  await db
    .insertInto('media')
    .values({
      media_id: mediaId,
      upload_id: uploadId,
      uid,
      status: 'ready',
      duration_ms: durationMs,
      width,
      height,
      renditions,
      frame_rate: frameRate,
    })
    .execute();
  const { video_id: videoId } = await db
    .insertInto('videos')
    .values({ uploader_uid: uid, title, status: 'approved', duration_ms: durationMs, search_text: title })
    .returning('video_id')
    .executeTakeFirstOrThrow();
  await db.insertInto('video_parts').values({ video_id: videoId, part_index: 0, media_id: mediaId }).execute();
  return { videoId, mediaId };
}

const WORDS = [
  '草',
  '哈哈哈哈',
  '前方高能',
  '来了来了',
  '好耶',
  '名场面',
  'wwww',
  'かわいい',
  '泪目',
  '这里是重点',
  'AWSL',
  '打卡',
  '笑死',
  '神作',
  'replay',
  '233333',
];

/**
 * `count` danmaku from one seed: 1 to `maxWords` words, 30 % coloured, a quarter small, half medium,
 * a quarter large, 4/7 scrolling right to left and 1/7 each top, bottom, left to right, 2 % rainbow;
 * the i-th at `timeOf(i, rand)` seconds, sent a second after the one before.
 */
export async function insertDanmaku(
  db: Kysely<Database>,
  stream: {
    videoId: number;
    uid: number;
    count: number;
    seed: number;
    maxWords: number;
    timeOf: (i: number, rand: () => number) => number;
  },
) {
  const { videoId, uid, count, maxWords, timeOf } = stream;
  let s = stream.seed;
  const rand = () => (s = (s * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const rows = Array.from({ length: count }, (_, i) => ({
    video_id: videoId,
    uid,
    time: +timeOf(i, rand).toFixed(3),
    text: Array.from(
      { length: 1 + Math.floor(rand() * maxWords) },
      () => WORDS[Math.floor(rand() * WORDS.length)],
    ).join(' '),
    color: rand() < 0.7 ? 'ffffff' : ['fe0302', 'ffff00', '00cd00', '89d5ff'][Math.floor(rand() * 4)],
    font_size: (['small', 'medium', 'medium', 'large'] as const)[Math.floor(rand() * 4)],
    mode: (['rtl', 'rtl', 'rtl', 'rtl', 'top', 'bottom', 'ltr'] as const)[Math.floor(rand() * 7)],
    rainbow: rand() < 0.02,
    created_at: new Date(Date.now() - (count - i) * 1000),
  }));
  for (let i = 0; i < rows.length; i += 1000)
    await db
      .insertInto('danmaku')
      .values(rows.slice(i, i + 1000))
      .execute();
}

/**
 * `count` members `fan0`, `fan1`, … inserted directly (no password hashing, no mail), each with a
 * session: their cookies, in order.
 */
export async function insertMembersWithSessions(db: Kysely<Database>, count: number): Promise<string[]> {
  const uids: number[] = [];
  for (let i = 0; i < count; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - i) }, (_, j) => ({
      username: `fan${i + j}`,
      email: `fan${i + j}@bench.test`,
      password_hash: null,
      roles: ['user'],
    }));
    uids.push(...(await db.insertInto('users').values(rows).returning('uid').execute()).map((r) => r.uid));
  }
  const repositories = createRepositories(db);
  const cookies: string[] = [];
  for (const uid of uids) cookies.push(`uid=${uid}; token=${await createSession(repositories, uid)}`);
  return cookies;
}

/** The likes benches' uploader, never one of the likers (so every like is one they hear of). */
export async function insertUploader(db: Kysely<Database>): Promise<number> {
  const row = await db
    .insertInto('users')
    .values({ username: 'uploader', email: 'uploader@bench.test', password_hash: null, roles: ['user'] })
    .returning('uid')
    .executeTakeFirstOrThrow();
  return row.uid;
}

/** A plain approved one-minute video (the likes benches' items); its id. */
export async function insertPlainVideo(db: Kysely<Database>, uploaderUid: number, title: string): Promise<number> {
  const { videoId } = await insertApprovedVideo(db, uploaderUid, {
    title,
    durationMs: 60_000,
    width: 640,
    height: 360,
    renditions: [360],
  });
  return videoId;
}
