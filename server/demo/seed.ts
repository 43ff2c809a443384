/**
 * The demo catalogue: on the first start with an empty database, a few uploaders and short
 * videos made from ffmpeg's test sources, with multilingual tags, danmaku and comments, a few
 * audio tracks (ffmpeg tones) and photo posts (sharp-drawn pictures), so a newcomer opens a
 * living site with its audio and photo rows. Everything goes through the real pipelines (probe
 * result, transcode and render jobs). DEMO=0 skips it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import type { Logger } from '../logger.ts';
import type { TagCreateBody } from '../../src/lib/api/contracts/video.ts';
import type { VideoCategory } from '../../src/lib/api/contracts/video.constants.ts';
import { insertAccount } from '../services/accounts.ts';
import { createTagService } from '../services/tags.ts';
import type { Repositories } from '../repositories/index.ts';
import { searchTextOf } from '../services/videos.ts';
import { sanitizeComment } from '../services/comments.ts';
import { binaryPath, probeVideo, run } from '../media/ffmpeg.ts';
import { createDemoRepository, type DemoUpload } from '../repositories/demo.repository.ts';
import { TRANSCODE_JOB } from '../media/pipeline.ts';
import { AUDIO_TRANSCODE_JOB, probeAudio } from '../media/audio-pipeline.ts';
import { PHOTO_JOB } from '../media/photo-files.ts';
import type { UploadStore } from '../media/upload-store.ts';

const UPLOADERS = [
  { username: 'hoshino', userNickname: '星野ミライ', signature: '每天都在画画和做音乐 ♪' },
  { username: 'sakura_beats', userNickname: 'Sakura Beats', signature: 'Lo-fi beats to study and relax to.' },
  { username: 'pixel_neko', userNickname: '像素猫', signature: 'ドット絵とゲームが好き。' },
];

const TAGS: Record<string, TagCreateBody['tagNameList']> = {
  vocaloid: [
    { lang: 'en', tagName: [{ name: 'VOCALOID', isOriginalTagName: true }] },
    { lang: 'ja', tagName: [{ name: 'ボーカロイド' }] },
    { lang: 'zhs', tagName: [{ name: '虚拟歌手' }] },
  ],
  touhou: [
    { lang: 'ja', tagName: [{ name: '東方Project', isOriginalTagName: true }] },
    { lang: 'zhs', tagName: [{ name: '东方' }] },
    { lang: 'en', tagName: [{ name: 'Touhou' }] },
  ],
  guitar: [
    { lang: 'zhs', tagName: [{ name: '吉他' }] },
    { lang: 'ja', tagName: [{ name: 'ギター' }] },
    { lang: 'en', tagName: [{ name: 'Guitar', isOriginalTagName: true }] },
  ],
  lofi: [
    { lang: 'en', tagName: [{ name: 'Lo-fi', isOriginalTagName: true }] },
    { lang: 'zhs', tagName: [{ name: '低保真' }] },
  ],
  pixel: [
    { lang: 'en', tagName: [{ name: 'Pixel art', isOriginalTagName: true }] },
    { lang: 'ja', tagName: [{ name: 'ドット絵' }] },
    { lang: 'zhs', tagName: [{ name: '像素画' }] },
  ],
  tutorial: [
    { lang: 'zhs', tagName: [{ name: '教程', isOriginalTagName: true }] },
    { lang: 'en', tagName: [{ name: 'Tutorial' }] },
    { lang: 'ja', tagName: [{ name: '講座' }] },
  ],
};

interface DemoVideo {
  uploader: number;
  title: string;
  description: string;
  category: VideoCategory;
  tags: string[];
  source: string;
  tone: number;
}
const VIDEOS: DemoVideo[] = [
  {
    uploader: 0,
    title: '【原创曲】星屑のメロディー',
    description: '第一次投稿原创曲，请多指教！\n作词・作曲：星野ミライ',
    category: 'music',
    tags: ['vocaloid'],
    source: 'testsrc2=size=640x360:rate=30',
    tone: 523,
  },
  {
    uploader: 0,
    title: '【东方】恋色マスタースパーク 吉他弹唱',
    description: '用木吉他弹唱东方名曲。',
    category: 'music',
    tags: ['touhou', 'guitar'],
    source: 'smptehdbars=size=640x360:rate=30',
    tone: 440,
  },
  {
    uploader: 1,
    title: 'Lo-fi beats for a rainy evening',
    description: 'Thirty calm seconds. Headphones recommended.',
    category: 'music',
    tags: ['lofi'],
    source: 'mandelbrot=size=640x360:rate=30',
    tone: 330,
  },
  {
    uploader: 2,
    title: 'ドット絵で描く夏の夜空',
    description: '16×16 のドット絵メイキングです。',
    category: 'design',
    tags: ['pixel', 'tutorial'],
    source: 'life=size=640x360:rate=30:mold=10:ratio=0.1:death_color=#1b1035:life_color=#f06e8e',
    tone: 392,
  },
  {
    uploader: 2,
    title: '像素风小游戏开发日志 #1',
    description: '用 200 行代码做一个元胞自动机小游戏。',
    category: 'game',
    tags: ['pixel'],
    source: 'cellauto=size=640x360:rate=30:rule=110',
    tone: 294,
  },
  {
    uploader: 1,
    title: 'Colour bars, explained: a five-minute video tutorial',
    description: 'What the test pattern tells you about your screen.',
    category: 'tech',
    tags: ['tutorial'],
    source: 'rgbtestsrc=size=640x360:rate=30',
    tone: 262,
  },
];
const SECONDS = 12;

/** A square cover: a two-colour gradient with a disc, drawn from SVG by sharp. */
const disc = (
  from: string,
  to: string,
  ring: string,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600" viewBox="0 0 600 600">
  <defs><linearGradient id="c" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="600" height="600" fill="url(#c)"/><circle cx="300" cy="300" r="170" fill="none" stroke="${ring}" stroke-width="26" opacity="0.8"/>
  <circle cx="300" cy="300" r="34" fill="${ring}"/></svg>`;

/** Tracks: a few seconds of ffmpeg tones (a chord of sines, or pink noise for rain). */
interface DemoTrack {
  uploader: number;
  title: string;
  artist: string;
  description: string;
  tags: string[];
  source: string;
  cover: string;
}
const TRACKS: DemoTrack[] = [
  {
    uploader: 1,
    title: 'Rainy window (lo-fi loop)',
    artist: 'Sakura Beats',
    description: 'Pink noise rain and a soft chord. Loop it while you study.',
    tags: ['lofi'],
    cover: disc('#5b3a8c', '#66ccff', '#ffe9a8'),
    source:
      'anoisesrc=color=pink:amplitude=0.08:sample_rate=48000[n];sine=frequency=220:sample_rate=48000[a];sine=frequency=277:sample_rate=48000[b];[n][a][b]amix=inputs=3',
  },
  {
    uploader: 0,
    title: '星屑のメロディー (instrumental)',
    artist: '星野ミライ',
    description: '原创曲的伴奏版。',
    tags: ['vocaloid'],
    cover: disc('#f06e8e', '#1b1035', '#ffffff'),
    source:
      'sine=frequency=523:beep_factor=2:sample_rate=48000[a];sine=frequency=659:sample_rate=48000[b];[a][b]amix=inputs=2',
  },
  {
    uploader: 2,
    title: '8-bit 夏祭り',
    artist: '像素猫',
    description: 'チップチューン風の短いループ。',
    tags: ['pixel'],
    cover: disc('#0f380f', '#9bbc0f', '#f9c22b'),
    source:
      'sine=frequency=392:beep_factor=8:sample_rate=48000[a];sine=frequency=98:sample_rate=48000[b];[a][b]amix=inputs=2',
  },
];
const TRACK_SECONDS = 20;

/** Photo posts: pictures drawn from SVG by sharp (a night sky, a sunset, pixel art). */
interface DemoPost {
  uploader: number;
  title: string;
  description: string;
  tags: string[];
  images: Array<{ svg: string; alt: string }>;
}
const sky = (
  top: string,
  bottom: string,
  extra: string,
) => `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000" viewBox="0 0 1600 1000">
  <defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient></defs>
  <rect width="1600" height="1000" fill="url(#g)"/>${extra}</svg>`;
const stars = Array.from(
  { length: 60 },
  (_, i) =>
    `<circle cx="${(i * 397) % 1600}" cy="${(i * 211) % 620}" r="${1 + (i % 3)}" fill="#fff" opacity="${0.4 + (i % 5) / 10}"/>`,
).join('');
const pixels = (palette: string[]) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="800" viewBox="0 0 16 16" shape-rendering="crispEdges">${Array.from(
    { length: 256 },
    (_, i) =>
      `<rect x="${i % 16}" y="${Math.floor(i / 16)}" width="1" height="1" fill="${palette[(i * 7 + Math.floor(i / 16) * 3) % palette.length]}"/>`,
  ).join('')}</svg>`;
const POSTS: DemoPost[] = [
  {
    uploader: 0,
    title: '夏夜的星空',
    description: '在山上看到的银河，随手画了下来。',
    tags: ['pixel'],
    images: [
      {
        svg: sky(
          '#0b1030',
          '#3b2a6b',
          `${stars}<path d="M0 860 L300 700 L560 820 L900 640 L1250 800 L1600 700 L1600 1000 L0 1000 Z" fill="#120c26"/>`,
        ),
        alt: 'A starry night sky over dark mountains',
      },
      {
        svg: sky('#1b1035', '#f06e8e', `${stars}<circle cx="1200" cy="300" r="90" fill="#ffe9a8"/>`),
        alt: 'A pink evening sky with a pale full moon',
      },
    ],
  },
  {
    uploader: 1,
    title: 'Sunset over the harbour',
    description: 'Warm colours for a calm evening.',
    tags: ['lofi'],
    images: [
      {
        svg: sky(
          '#ff9a6b',
          '#5b3a8c',
          '<circle cx="800" cy="640" r="160" fill="#ffd37a"/><rect y="700" width="1600" height="300" fill="#2d2350"/>',
        ),
        alt: 'An orange sun setting into a purple sea',
      },
    ],
  },
  {
    uploader: 2,
    title: 'ドット絵パレット集',
    description: '16×16 のドット絵で色の組み合わせを試しました。',
    tags: ['pixel'],
    images: [
      {
        svg: pixels(['#1b1035', '#f06e8e', '#66ccff', '#ffd700']),
        alt: 'A 16 by 16 pixel pattern in navy, pink, sky blue and gold',
      },
      {
        svg: pixels(['#0f380f', '#306230', '#8bac0f', '#9bbc0f']),
        alt: 'A 16 by 16 pixel pattern in four greens, like an old handheld console',
      },
      {
        svg: pixels(['#2e222f', '#c64524', '#f9c22b', '#fbff86', '#4d9be6']),
        alt: 'A 16 by 16 pixel pattern in warm reds and yellows with blue',
      },
    ],
  },
];

/** What the first viewers said: a few danmaku in every mode and some comments, in several languages. */
type DemoDanmaku = [
  time: number,
  text: string,
  mode: 'rtl' | 'ltr' | 'top' | 'bottom',
  color?: string,
  fontSize?: 'small' | 'medium' | 'large',
  rainbow?: boolean,
];
const DANMAKU: DemoDanmaku[] = [
  [0.5, '来了来了', 'rtl'],
  [1, 'きたー！', 'rtl'],
  [1.5, '第一！', 'top', 'f06e8e', 'large'],
  [2.2, 'first time here, hello everyone', 'rtl'],
  [3, '好听', 'rtl', '66ccff'],
  [3.4, 'いい曲すぎる', 'rtl'],
  [4, '前方高能', 'top', 'ffd700', 'large'],
  [4.6, '✨✨✨', 'ltr', 'ffffff', 'medium', true],
  [5.5, '这里的画面好舒服', 'rtl'],
  [6, '노래 너무 좋아요', 'rtl'],
  [6.8, 'trop beau', 'rtl', 'a0e7a0'],
  [7.5, '空耳：今天吃什么', 'bottom', '66ccff'],
  [8.2, 'ここ好き', 'rtl'],
  [8.9, 'keren banget', 'rtl'],
  [9.5, '单曲循环中', 'rtl', 'f06e8e'],
  [10.2, '哇哇哇', 'ltr'],
  [10.8, '感谢up主！', 'bottom', 'ffd700', 'large'],
  [11.4, 'again!', 'rtl', 'ffffff', 'small'],
];
const COMMENTS = [
  '<b>太喜欢了！</b>每天都来听一遍。',
  'この動画で元気が出ました、ありがとうございます！',
  'Lovely work, the <i>colours</i> are so calming.',
];

/** `repositories` is the root's one set (accounts and tags share its caches); the demo's own inserts go through the demo repository over `db`. */
export async function seedDemoCatalogue(options: {
  db: Kysely<Database>;
  repositories: Repositories;
  uploads: UploadStore;
  logger: Logger;
  onQueued: () => void;
}): Promise<boolean> {
  const { db, logger } = options;
  if (!(await createDemoRepository(db).isEmpty())) return false; // only a brand-new site gets demo content
  const started = performance.now();
  const workDir = await mkdtemp(join(tmpdir(), 'kiraboshi-demo-'));
  let videosMs = 0;
  try {
    const seeded = await seedVideos(db, options.repositories, options.uploads, workDir);
    videosMs = Math.round(performance.now() - started);
    await seedTracks(db, options.uploads, workDir, seeded);
    await seedPosts(db, options.uploads, workDir, seeded);
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
  options.onQueued();
  logger.info('demo catalogue created (DEMO=0 turns it off)', {
    users: UPLOADERS.length,
    videos: VIDEOS.length,
    tracks: TRACKS.length,
    photoPosts: POSTS.length,
    ms: Math.round(performance.now() - started),
    videosMs,
  });
  return true;
}

/** The demo uploaders and tags, by index and key. */
interface Seeded {
  uids: number[];
  tagIds: Record<string, number>;
}

/** The uploaders, tags and videos; each clip is made in `workDir` and stored like a finished upload. */
async function seedVideos(
  db: Kysely<Database>,
  repositories: Repositories,
  uploads: UploadStore,
  workDir: string,
): Promise<Seeded> {
  const demo = createDemoRepository(db);
  const uids: number[] = [];
  for (const u of UPLOADERS) {
    const uid = await insertAccount(repositories, {
      email: `${u.username}@demo.kiraboshi.localhost`,
      password: randomBytes(18).toString('base64url'),
      username: u.username,
      userNickname: u.userNickname,
      reviewed: true,
    });
    await demo.setSignature(uid, u.signature);
    uids.push(uid);
  }
  const tags = createTagService(repositories);
  const tagIds: Record<string, number> = {};
  for (const [key, tagNameList] of Object.entries(TAGS)) tagIds[key] = await tags.create(uids[0], { tagNameList });

  for (const [index, video] of VIDEOS.entries()) {
    const uid = uids[video.uploader];
    const uploadId = randomBytes(16).toString('hex');
    const mediaId = randomBytes(12).toString('hex');
    const file = join(workDir, `${uploadId}.mp4`);
    const made = await run(binaryPath('ffmpeg'), [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-t',
      String(SECONDS),
      '-i',
      video.source,
      '-f',
      'lavfi',
      '-t',
      String(SECONDS),
      '-i',
      `sine=frequency=${video.tone}:sample_rate=48000`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-shortest',
      '-f',
      'mp4',
      file,
    ]);
    if (made.code !== 0) throw new Error(`demo video ${index + 1} could not be made: ${made.stderr.slice(-300)}`);
    const probe = await probeVideo(file);
    if (!probe.ok) throw new Error(`demo video ${index + 1} did not probe: ${probe.reason}`);
    await uploads.adopt(uploadId, file, { name: `demo-${index + 1}.mp4` });
    const upload: DemoUpload = {
      uploadId,
      mediaId,
      uid,
      fileName: `demo-${index + 1}.mp4`,
      size: (await stat(file)).size,
      kind: 'video',
      maxDurationSeconds: 1800,
    };
    // The first viewers: the other demo members, so danmaku and comments are not the uploader's own.
    const viewers = uids.filter((other) => other !== uid);
    await demo.insertVideo(
      upload,
      probe.result,
      {
        title: video.title,
        description: video.description,
        category: video.category,
        searchText: searchTextOf(video.title, video.description),
        tagIds: video.tags.map((key) => tagIds[key]),
        danmaku: DANMAKU.map(([time, text, mode, color = 'ffffff', fontSize = 'medium', rainbow = false], n) => ({
          uid: viewers[n % viewers.length],
          time,
          text,
          mode,
          color,
          fontSize,
          rainbow,
        })),
        comments: COMMENTS.map((html, n) => ({ uid: viewers[n % viewers.length], text: sanitizeComment(html) })),
      },
      TRANSCODE_JOB,
    );
  }
  return { uids, tagIds };
}

/** A finished upload of `kind` made from `file`, stored like one sent through tus. */
async function adoptUpload(
  db: Kysely<Database>,
  uploads: UploadStore,
  uid: number,
  file: string,
  name: string,
  kind: 'audio' | 'photo',
) {
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await uploads.adopt(uploadId, file, { name, kind });
  const upload: DemoUpload = {
    uploadId,
    mediaId,
    uid,
    fileName: name,
    size: (await stat(file)).size,
    kind,
    maxDurationSeconds: kind === 'audio' ? 7200 : 0,
  };
  await createDemoRepository(db).insertUpload(upload);
  return upload;
}

/** The tracks: each tone made in `workDir`, probed, stored, approved, and transcoded by the audio job. */
async function seedTracks(
  db: Kysely<Database>,
  uploads: UploadStore,
  workDir: string,
  { uids, tagIds }: Seeded,
): Promise<void> {
  const { default: sharp } = await import('sharp');
  for (const [index, track] of TRACKS.entries()) {
    const uid = uids[track.uploader];
    const file = join(workDir, `track-${index + 1}.flac`);
    // Its cover embedded in the file, as music files carry one: the pipeline extracts it.
    const cover = join(workDir, `track-${index + 1}.png`);
    await sharp(Buffer.from(track.cover)).png().toFile(cover);
    const made = await run(binaryPath('ffmpeg'), [
      '-y',
      '-v',
      'error',
      '-filter_complex',
      `${track.source},atrim=0:${TRACK_SECONDS}[out]`,
      '-i',
      cover,
      '-map',
      '[out]',
      '-map',
      '0:v',
      '-c:a',
      'flac',
      '-c:v',
      'png',
      '-disposition:v',
      'attached_pic',
      file,
    ]);
    if (made.code !== 0) throw new Error(`demo track ${index + 1} could not be made: ${made.stderr.slice(-300)}`);
    const probe = await probeAudio(file);
    if (!probe.ok) throw new Error(`demo track ${index + 1} did not probe: ${probe.reason}`);
    const upload = await adoptUpload(db, uploads, uid, file, `demo-track-${index + 1}.flac`, 'audio');
    await createDemoRepository(db).insertTrack(
      upload,
      { durationMs: probe.result.durationMs, audioCodec: probe.result.codec },
      {
        title: track.title,
        artist: track.artist,
        description: track.description,
        tagIds: track.tags.map((key) => tagIds[key]),
        searchText: `${searchTextOf(track.title, track.description)}\n${searchTextOf(track.artist, '')}`,
      },
      { kind: AUDIO_TRANSCODE_JOB, payload: { mediaId: upload.mediaId, probe: probe.result } },
    );
  }
}

/** The photo posts: each picture drawn by sharp in `workDir`, stored, and rendered by the photo job, which makes the post public. */
async function seedPosts(
  db: Kysely<Database>,
  uploads: UploadStore,
  workDir: string,
  { uids, tagIds }: Seeded,
): Promise<void> {
  const { default: sharp } = await import('sharp');
  for (const [index, post] of POSTS.entries()) {
    const uid = uids[post.uploader];
    const images: Array<{ mediaId: string; alt: string }> = [];
    for (const [n, image] of post.images.entries()) {
      const file = join(workDir, `photo-${index + 1}-${n + 1}.png`);
      const info = await sharp(Buffer.from(image.svg)).png().toFile(file);
      const upload = await adoptUpload(db, uploads, uid, file, `demo-photo-${index + 1}-${n + 1}.png`, 'photo');
      await createDemoRepository(db).insertPhotoMedia(upload, { width: info.width, height: info.height });
      images.push({ mediaId: upload.mediaId, alt: image.alt });
    }
    await createDemoRepository(db).insertPost(
      uid,
      {
        title: post.title,
        description: post.description,
        searchText: searchTextOf(post.title, post.description),
        tagIds: post.tags.map((key) => tagIds[key]),
      },
      images,
      PHOTO_JOB,
    );
  }
}
