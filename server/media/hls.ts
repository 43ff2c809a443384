import { mkdir, readdir, readFile, rename, rm, stat, statfs, writeFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { binaryPath, run } from './ffmpeg.ts';

/** What a transcode step may be given: `signal` stops its ffmpeg (the worker lets the job go). */
export interface StepOptions {
  signal?: AbortSignal;
}

/** Work in progress is written under a name with this mark, and renamed into place when whole. */
const PARTIAL_MARK = '.partial-';
/** In a partial rung folder: the pid of the ffmpeg writing it. */
const WRITER_PID_FILE = '.writer-pid';

/** Below this much free space, an output that came out short is put down to a full disk. */
const NEARLY_FULL_BYTES = 1024 * 1024;

/**
 * ffmpeg's failure, in words an operator can act on: a full or read-only media disk is named
 * as such (the job is retried, and succeeds once there is room again).
 */
async function stepFailure(step: string, outDir: string, stderr: string): Promise<Error> {
  const free = await statfs(outDir).then(
    (fs) => fs.bavail * fs.bsize,
    () => Infinity,
  );
  if (/No space left on device|Disk quota exceeded/i.test(stderr) || free < NEARLY_FULL_BYTES) {
    return new Error(`no space left on the media disk (MEDIA_DIR ${outDir}) while making ${step}`);
  }
  if (/Read-only file system/i.test(stderr))
    return new Error(`the media disk is read-only (MEDIA_DIR ${outDir}) while making ${step}`);
  return new Error(`ffmpeg failed making ${step}: ${stderr.slice(-500) || 'its output is incomplete'}`);
}

/**
 * Whether a rung ffmpeg wrote is whole. ffmpeg's HLS muxer can exit 0 on a full disk, leaving a
 * truncated segment and an empty playlist: the playlist must be ended, name only segments that
 * are there, and cover the source's duration.
 */
async function renditionIsWhole(dir: string, durationMs: number | undefined): Promise<boolean> {
  const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8').catch(() => '');
  if (!playlist.trimEnd().endsWith('#EXT-X-ENDLIST')) return false;
  const seconds = [...playlist.matchAll(/^#EXTINF:([\d.]+)/gm)].reduce((sum, match) => sum + Number(match[1]), 0);
  if (durationMs !== undefined && Math.abs(seconds * 1000 - durationMs) > Math.max(1000, durationMs * 0.02))
    return false;
  const files = ['init.mp4', ...playlist.split('\n').filter((line) => line.endsWith('.m4s'))];
  const sizes = await Promise.all(
    files.map((file) =>
      stat(join(dir, file)).then(
        (s) => s.size,
        () => 0,
      ),
    ),
  );
  return sizes.every((size) => size > 0);
}

/**
 * Before an attempt: removes what an interrupted one left (partial rung folders, half-written
 * playlists and images), first killing an ffmpeg still writing there (its node process was
 * killed, the child lived on). Published files are never touched.
 */
export async function clearInterruptedWork(outDir: string): Promise<void> {
  const names = await readdir(outDir).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.includes(PARTIAL_MARK) || n.endsWith('.tmp'))) {
    const path = join(outDir, name);
    const pid = Number(await readFile(join(path, WRITER_PID_FILE), 'utf8').catch(() => ''));
    // Only if that pid is still an ffmpeg writing into this very folder (pids are reused).
    if (pid > 0 && (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).includes(path)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await rm(path, { recursive: true, force: true });
  }
}

/** One rung; `level` is the H.264 level the encoder is held to (and the playlist advertises). */
export interface Rung {
  height: number;
  videoKbps: number;
  audioKbps: number;
  level: string;
}

/** The ladder: rungs up to the source's height; a source below the lowest rung keeps its own. */
export const LADDER: readonly Rung[] = [
  { height: 360, videoKbps: 800, audioKbps: 96, level: '3.0' },
  { height: 720, videoKbps: 2800, audioKbps: 128, level: '3.1' },
  { height: 1080, videoKbps: 5000, audioKbps: 160, level: '4.0' },
];
export const SEGMENT_SECONDS = 4;

export function ladderFor(sourceHeight: number): Rung[] {
  const rungs = LADDER.filter((r) => r.height <= sourceHeight);
  if (rungs.length) return rungs;
  const height = Math.max(2, sourceHeight - (sourceHeight % 2));
  return [{ ...LADDER[0], height }];
}

/** The rungs of already published heights (a height off the ladder is a small source's own, made as ladderFor makes it). */
export const rungsOf = (heights: readonly number[]): Rung[] =>
  heights.map((height) => LADDER.find((r) => r.height === height) ?? { ...LADDER[0], height });

/** One rung: H.264/AAC in fMP4 segments of about 4 s, keyframes aligned across rungs. */
export async function transcodeRung(
  input: string,
  outDir: string,
  rung: Rung,
  hasAudio: boolean,
  options: StepOptions & { durationMs?: number } = {},
): Promise<void> {
  // Written under a partial name and renamed whole: a player never sees half a rung, and an
  // attempt killed midway leaves only a partial folder, which the next attempt removes.
  const final = join(outDir, `${rung.height}p`);
  const dir = `${final}${PARTIAL_MARK}${randomBytes(4).toString('hex')}`;
  await mkdir(dir, { recursive: true });
  // Keyframes come from -force_key_frames every SEGMENT_SECONDS whatever the frame rate, so
  // segments line up across rungs; -g only caps the distance between them (about 2 s at 30 fps).
  const gop = '60';
  const args = [
    '-y',
    '-v',
    'error',
    '-i',
    input,
    '-map',
    '0:v:0',
    ...(hasAudio ? ['-map', '0:a:0'] : []),
    '-vf',
    `scale=-2:${rung.height}`,
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'main',
    '-level:v',
    rung.level,
    '-pix_fmt',
    'yuv420p',
    '-b:v',
    `${rung.videoKbps}k`,
    '-maxrate',
    `${Math.round(rung.videoKbps * 1.07)}k`,
    '-bufsize',
    `${rung.videoKbps * 2}k`,
    '-g',
    gop,
    '-sc_threshold',
    '0',
    '-force_key_frames',
    `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
    ...(hasAudio ? ['-c:a', 'aac', '-b:a', `${rung.audioKbps}k`, '-ac', '2'] : []),
    '-f',
    'hls',
    '-hls_time',
    String(SEGMENT_SECONDS),
    '-hls_playlist_type',
    'vod',
    '-hls_segment_type',
    'fmp4',
    '-hls_fmp4_init_filename',
    'init.mp4',
    '-hls_segment_filename',
    join(dir, 'seg_%04d.m4s'),
    join(dir, 'index.m3u8'),
  ];
  const result = await run(binaryPath('ffmpeg'), args, 60 * 60_000, {
    signal: options.signal,
    onSpawn: (pid) => void writeFile(join(dir, WRITER_PID_FILE), String(pid)).catch(() => {}),
  }).catch(async (error) => {
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  if (result.code !== 0 || !(await renditionIsWhole(dir, options.durationMs))) {
    await rm(dir, { recursive: true, force: true });
    throw await stepFailure(`the ${rung.height}p rendition`, outDir, result.stderr);
  }
  await rm(join(dir, WRITER_PID_FILE), { force: true });
  // A folder of this height not yet published (an attempt killed between rename and record) is replaced.
  await rm(final, { recursive: true, force: true });
  await rename(dir, final);
}

/** RFC 6381 codec string: avc1, Main profile (4d), constraint_set1 as x264 writes it for Main (40), the rung's level as hex. */
export const codecString = (rung: Rung) =>
  `avc1.4d40${Math.round(Number(rung.level) * 10)
    .toString(16)
    .padStart(2, '0')}`;

export interface MasterSource {
  width: number;
  height: number;
  hasAudio: boolean /** The source's (every rung keeps it); null: not advertised. */;
  frameRate: number | null;
}

/** A subtitle track of the part, listed in its master playlist as a WebVTT rendition (issue 29). */
export interface SubtitleRendition {
  id: number;
  language: string;
  label: string;
}

/** A quoted-string attribute value of a playlist tag (RFC 8216 §4.2: no double quote, CR or LF). */
const quoted = (text: string) => `"${text.replace(/["\r\n]/g, ' ')}"`;

/**
 * The master playlist for the rungs done so far. FRAME-RATE (three decimals, RFC 8216) lets players
 * step one frame. Each subtitle track is a SUBTITLES rendition of one group, off unless chosen
 * (DEFAULT=NO, AUTOSELECT=NO: the site's player draws its own), so native players (Safari, VLC,
 * ffmpeg) list them too.
 */
export function masterPlaylist(
  rungs: readonly Rung[],
  source: MasterSource,
  subtitles: readonly SubtitleRendition[] = [],
): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const track of subtitles) {
    lines.push(
      `#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME=${quoted(`${track.label} (${track.id})`)},LANGUAGE=${quoted(track.language)},DEFAULT=NO,AUTOSELECT=NO,FORCED=NO,URI="subtitles/${track.id}/index.m3u8"`,
    );
  }
  const frameRate = source.frameRate ? `,FRAME-RATE=${source.frameRate.toFixed(3)}` : '';
  const group = subtitles.length ? ',SUBTITLES="subs"' : '';
  for (const r of rungs) {
    const w = Math.round(((source.width / source.height) * r.height) / 2) * 2;
    const codecs = [codecString(r), ...(source.hasAudio ? ['mp4a.40.2'] : [])].join(',');
    const bandwidth = (r.videoKbps + (source.hasAudio ? r.audioKbps : 0)) * 1000;
    lines.push(
      `#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${w}x${r.height}${frameRate},CODECS="${codecs}"${group}`,
      `${r.height}p/index.m3u8`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The master playlist of a media item as stored (its published rungs and facts) with these tracks. */
export function masterPlaylistOf(
  media: {
    renditions: readonly number[];
    width: number | null;
    height: number | null;
    audio_codec: string | null;
    frame_rate: number | null;
  },
  subtitles: readonly SubtitleRendition[],
): string {
  return masterPlaylist(
    rungsOf(media.renditions),
    { width: media.width!, height: media.height!, hasAudio: media.audio_codec !== null, frameRate: media.frame_rate },
    subtitles,
  );
}

/** A subtitle track's media playlist: its whole WebVTT file as the one segment of the part's length. */
export function subtitlePlaylist(durationMs: number, vttName: string): string {
  const seconds = Math.max(1, durationMs / 1000);
  return [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.ceil(seconds)}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    `#EXTINF:${seconds.toFixed(3)},`,
    vttName,
    '#EXT-X-ENDLIST',
    '',
  ].join('\n');
}

/** A poster frame from a third of the way in, 720 high or the source's height when lower (never enlarged). */
export async function makePoster(
  input: string,
  outDir: string,
  durationMs: number,
  options: StepOptions = {},
): Promise<void> {
  const at = (durationMs / 3000).toFixed(2);
  await writeImage(outDir, 'poster.jpg', 'the poster', options, (file) => [
    '-y',
    '-v',
    'error',
    '-ss',
    at,
    '-i',
    input,
    '-frames:v',
    '1',
    '-vf',
    "scale=-2:'min(720,ih)'",
    '-q:v',
    '3',
    file,
  ]);
}

/** An image made by ffmpeg under a partial name, renamed into place once whole. */
async function writeImage(
  outDir: string,
  name: string,
  step: string,
  options: StepOptions,
  args: (file: string) => string[],
) {
  const partial = join(outDir, `${name}${PARTIAL_MARK}${randomBytes(4).toString('hex')}.jpg`);
  const result = await run(binaryPath('ffmpeg'), args(partial), 120_000, { signal: options.signal }).catch(
    async (error) => {
      await rm(partial, { force: true });
      throw error;
    },
  );
  if (
    result.code !== 0 ||
    !(await stat(partial).then(
      (file) => file.size > 0,
      () => false,
    ))
  ) {
    await rm(partial, { force: true });
    throw await stepFailure(step, outDir, result.stderr);
  }
  await rename(partial, join(outDir, name));
}

/** Seek previews: one 160 px frame every few seconds, tiled into one image. */
export async function makeStoryboard(
  input: string,
  outDir: string,
  durationMs: number,
  width: number,
  height: number,
  options: StepOptions = {},
) {
  const seconds = durationMs / 1000;
  const intervalSeconds = Math.max(1, Math.ceil(seconds / 100));
  const count = Math.max(1, Math.ceil(seconds / intervalSeconds));
  const columns = Math.min(10, count);
  const rows = Math.ceil(count / columns);
  const tileWidth = 160;
  const tileHeight = Math.round((tileWidth * height) / width / 2) * 2;
  await writeImage(outDir, 'storyboard.jpg', 'the storyboard', options, (file) => [
    '-y',
    '-v',
    'error',
    '-i',
    input,
    '-vf',
    `fps=1/${intervalSeconds},scale=${tileWidth}:${tileHeight},tile=${columns}x${rows}`,
    '-frames:v',
    '1',
    '-q:v',
    '5',
    file,
  ]);
  return { file: 'storyboard.jpg', intervalSeconds, columns, rows, tileWidth, tileHeight, count };
}
