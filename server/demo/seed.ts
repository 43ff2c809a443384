/**
 * The demo catalogue: on the first start with an empty database, a few uploaders and short
 * videos made from ffmpeg's test sources, with multilingual tags, danmaku and comments, so a
 * newcomer opens a living site. The videos go through the real pipeline (probe result, transcode job). DEMO=0 skips it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { TagCreateBody, VideoCategory } from '../../src/lib/api/contract.ts';
import { insertAccount } from '../services/accounts.ts';
import { createTagService } from '../services/tags.ts';
import { createRepositories } from '../repositories/index.ts';
import { searchTextOf } from '../services/videos.ts';
import { sanitizeComment } from '../services/comments.ts';
import { binaryPath, probeVideo, run } from '../media/ffmpeg.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { TRANSCODE_JOB } from '../media/pipeline.ts';
import type { UploadStore } from '../media/upload-store.ts';

const UPLOADERS = [
  { username: 'hoshino', userNickname: '星野ミライ', signature: '每天都在画画和做音乐 ♪' },
  { username: 'sakura_beats', userNickname: 'Sakura Beats', signature: 'Lo-fi beats to study and relax to.' },
  { username: 'pixel_neko', userNickname: '像素猫', signature: 'ドット絵とゲームが好き。' },
];

const TAGS: Record<string, TagCreateBody['tagNameList']> = {
  vocaloid: [{ lang: 'en', tagName: [{ name: 'VOCALOID', isOriginalTagName: true }] }, { lang: 'ja', tagName: [{ name: 'ボーカロイド' }] }, { lang: 'zhs', tagName: [{ name: '虚拟歌手' }] }],
  touhou: [{ lang: 'ja', tagName: [{ name: '東方Project', isOriginalTagName: true }] }, { lang: 'zhs', tagName: [{ name: '东方' }] }, { lang: 'en', tagName: [{ name: 'Touhou' }] }],
  guitar: [{ lang: 'zhs', tagName: [{ name: '吉他' }] }, { lang: 'ja', tagName: [{ name: 'ギター' }] }, { lang: 'en', tagName: [{ name: 'Guitar', isOriginalTagName: true }] }],
  lofi: [{ lang: 'en', tagName: [{ name: 'Lo-fi', isOriginalTagName: true }] }, { lang: 'zhs', tagName: [{ name: '低保真' }] }],
  pixel: [{ lang: 'en', tagName: [{ name: 'Pixel art', isOriginalTagName: true }] }, { lang: 'ja', tagName: [{ name: 'ドット絵' }] }, { lang: 'zhs', tagName: [{ name: '像素画' }] }],
  tutorial: [{ lang: 'zhs', tagName: [{ name: '教程', isOriginalTagName: true }] }, { lang: 'en', tagName: [{ name: 'Tutorial' }] }, { lang: 'ja', tagName: [{ name: '講座' }] }],
};

interface DemoVideo { uploader: number; title: string; description: string; category: VideoCategory; tags: string[]; source: string; tone: number }
const VIDEOS: DemoVideo[] = [
  { uploader: 0, title: '【原创曲】星屑のメロディー', description: '第一次投稿原创曲，请多指教！\n作词・作曲：星野ミライ', category: 'music', tags: ['vocaloid'], source: 'testsrc2=size=640x360:rate=30', tone: 523 },
  { uploader: 0, title: '【东方】恋色マスタースパーク 吉他弹唱', description: '用木吉他弹唱东方名曲。', category: 'music', tags: ['touhou', 'guitar'], source: 'smptehdbars=size=640x360:rate=30', tone: 440 },
  { uploader: 1, title: 'Lo-fi beats for a rainy evening', description: 'Thirty calm seconds. Headphones recommended.', category: 'music', tags: ['lofi'], source: 'mandelbrot=size=640x360:rate=30', tone: 330 },
  { uploader: 2, title: 'ドット絵で描く夏の夜空', description: '16×16 のドット絵メイキングです。', category: 'design', tags: ['pixel', 'tutorial'], source: 'life=size=640x360:rate=30:mold=10:ratio=0.1:death_color=#1b1035:life_color=#f06e8e', tone: 392 },
  { uploader: 2, title: '像素风小游戏开发日志 #1', description: '用 200 行代码做一个元胞自动机小游戏。', category: 'game', tags: ['pixel'], source: 'cellauto=size=640x360:rate=30:rule=110', tone: 294 },
  { uploader: 1, title: 'Colour bars, explained: a five-minute video tutorial', description: 'What the test pattern tells you about your screen.', category: 'tech', tags: ['tutorial'], source: 'rgbtestsrc=size=640x360:rate=30', tone: 262 },
];
const SECONDS = 12;

/** What the first viewers said: a few danmaku in every mode and some comments, in several languages. */
type DemoDanmaku = [time: number, text: string, mode: 'rtl' | 'ltr' | 'top' | 'bottom', color?: string, fontSize?: 'small' | 'medium' | 'large', rainbow?: boolean];
const DANMAKU: DemoDanmaku[] = [
  [0.5, '来了来了', 'rtl'], [1, 'きたー！', 'rtl'], [1.5, '第一！', 'top', 'f06e8e', 'large'], [2.2, 'first time here, hello everyone', 'rtl'],
  [3, '好听', 'rtl', '66ccff'], [3.4, 'いい曲すぎる', 'rtl'], [4, '前方高能', 'top', 'ffd700', 'large'], [4.6, '✨✨✨', 'ltr', 'ffffff', 'medium', true],
  [5.5, '这里的画面好舒服', 'rtl'], [6, '노래 너무 좋아요', 'rtl'], [6.8, 'trop beau', 'rtl', 'a0e7a0'], [7.5, '空耳：今天吃什么', 'bottom', '66ccff'],
  [8.2, 'ここ好き', 'rtl'], [8.9, 'keren banget', 'rtl'], [9.5, '单曲循环中', 'rtl', 'f06e8e'], [10.2, '哇哇哇', 'ltr'],
  [10.8, '感谢up主！', 'bottom', 'ffd700', 'large'], [11.4, 'again!', 'rtl', 'ffffff', 'small'],
];
const COMMENTS = [
  '<b>太喜欢了！</b>每天都来听一遍。',
  'この動画で元気が出ました、ありがとうございます！',
  'Lovely work, the <i>colours</i> are so calming.',
];

export async function seedDemoCatalogue(options: { db: Kysely<Database>; uploads: UploadStore; logger: Logger; onQueued: () => void }): Promise<boolean> {
  const { db, logger } = options;
  const anyone = await db.selectFrom('users').select('uid').limit(1).executeTakeFirst();
  if (anyone) return false; // only a brand-new site gets demo content
  const started = performance.now();
  const workDir = await mkdtemp(join(tmpdir(), 'kiraboshi-demo-'));
  try {
    await seedVideos(db, options.uploads, workDir);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  options.onQueued();
  logger.info('demo catalogue created (DEMO=0 turns it off)', { users: UPLOADERS.length, videos: VIDEOS.length, ms: Math.round(performance.now() - started) });
  return true;
}

/** The uploaders, tags and videos; each clip is made in `workDir` and stored like a finished upload. */
async function seedVideos(db: Kysely<Database>, uploads: UploadStore, workDir: string): Promise<void> {
  const uids: number[] = [];
  for (const u of UPLOADERS) {
    const uid = await insertAccount(createRepositories(db), { email: `${u.username}@demo.kiraboshi.localhost`, password: randomBytes(18).toString('base64url'), username: u.username, userNickname: u.userNickname });
    await db.updateTable('users').set({ signature: u.signature }).where('uid', '=', uid).execute();
    uids.push(uid);
  }
  const tags = createTagService(createRepositories(db));
  const tagIds: Record<string, number> = {};
  for (const [key, tagNameList] of Object.entries(TAGS)) tagIds[key] = await tags.create(uids[0], { tagNameList });

  for (const [index, video] of VIDEOS.entries()) {
    const uid = uids[video.uploader];
    const uploadId = randomBytes(16).toString('hex');
    const mediaId = randomBytes(12).toString('hex');
    const file = join(workDir, `${uploadId}.mp4`);
    const made = await run(binaryPath('ffmpeg'), [
      '-y', '-v', 'error', '-f', 'lavfi', '-t', String(SECONDS), '-i', video.source,
      '-f', 'lavfi', '-t', String(SECONDS), '-i', `sine=frequency=${video.tone}:sample_rate=48000`,
      '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', '-f', 'mp4', file,
    ]);
    if (made.code !== 0) throw new Error(`demo video ${index + 1} could not be made: ${made.stderr.slice(-300)}`);
    const probe = await probeVideo(file);
    if (!probe.ok) throw new Error(`demo video ${index + 1} did not probe: ${probe.reason}`);
    const { durationMs, width, height, videoCodec, audioCodec } = probe.result;
    await uploads.adopt(uploadId, file, { name: `demo-${index + 1}.mp4` });
    const now = new Date();
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('uploads').values({
        id: uploadId, uid, file_name: `demo-${index + 1}.mp4`, size: (await stat(file)).size, max_duration_seconds: 1800,
        expires_at: now, finished_at: now, media_id: mediaId,
      }).execute();
      await trx.insertInto('media').values({
        media_id: mediaId, upload_id: uploadId, uid, status: 'probed', duration_ms: durationMs, width, height, video_codec: videoCodec, audio_codec: audioCodec,
      }).execute();
      const { video_id } = await trx.insertInto('videos').values({
        uploader_uid: uid, title: video.title, description: video.description, category: video.category, copyright: 'original',
        ensure_original: true, duration_ms: durationMs, status: 'approved', reviewed_at: now, search_text: searchTextOf(video.title, video.description),
      }).returning('video_id').executeTakeFirstOrThrow();
      await trx.insertInto('video_parts').values({ video_id, part_index: 0, title: '', media_id: mediaId }).execute();
      await trx.insertInto('video_tags').values(video.tags.map((key, position) => ({ video_id, tag_id: tagIds[key], position }))).execute();
      // The first viewers: the other demo members, so danmaku and comments are not the uploader's own.
      const viewers = uids.filter((other) => other !== uid);
      await trx.insertInto('danmaku').values(DANMAKU.map(([time, text, mode, color = 'ffffff', fontSize = 'medium', rainbow = false], n) => ({
        video_id, uid: viewers[n % viewers.length], time, text, mode, color, font_size: fontSize, rainbow,
      }))).execute();
      await trx.updateTable('videos').set({ comment_floor: COMMENTS.length }).where('video_id', '=', video_id).execute();
      await trx.insertInto('comments').values(COMMENTS.map((html, n) => ({
        video_id, floor: n + 1, uid: viewers[n % viewers.length], text: sanitizeComment(html),
      }))).execute();
      await enqueueJob(trx, TRANSCODE_JOB, { mediaId });
    });
  }
}
