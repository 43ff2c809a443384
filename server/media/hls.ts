import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { binaryPath, run } from './ffmpeg.ts';

/** One rung; `level` is the H.264 level the encoder is held to (and the playlist advertises). */
export interface Rung { height: number; videoKbps: number; audioKbps: number; level: string }

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
export async function transcodeRung(input: string, outDir: string, rung: Rung, hasAudio: boolean): Promise<void> {
  const dir = join(outDir, `${rung.height}p`);
  await mkdir(dir, { recursive: true });
  // Keyframes come from -force_key_frames every SEGMENT_SECONDS whatever the frame rate, so
  // segments line up across rungs; -g only caps the distance between them (about 2 s at 30 fps).
  const gop = '60';
  const args = [
    '-y', '-v', 'error', '-i', input, '-map', '0:v:0', ...(hasAudio ? ['-map', '0:a:0'] : []),
    '-vf', `scale=-2:${rung.height}`, '-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'main', '-level:v', rung.level, '-pix_fmt', 'yuv420p',
    '-b:v', `${rung.videoKbps}k`, '-maxrate', `${Math.round(rung.videoKbps * 1.07)}k`, '-bufsize', `${rung.videoKbps * 2}k`,
    '-g', gop, '-sc_threshold', '0', '-force_key_frames', `expr:gte(t,n_forced*${SEGMENT_SECONDS})`,
    ...(hasAudio ? ['-c:a', 'aac', '-b:a', `${rung.audioKbps}k`, '-ac', '2'] : []),
    '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_playlist_type', 'vod', '-hls_segment_type', 'fmp4',
    '-hls_fmp4_init_filename', 'init.mp4', '-hls_segment_filename', join(dir, 'seg_%04d.m4s'), join(dir, 'index.m3u8'),
  ];
  const result = await run(binaryPath('ffmpeg'), args, 60 * 60_000);
  if (result.code !== 0) throw new Error(`ffmpeg failed for ${rung.height}p: ${result.stderr.slice(-500)}`);
}

/** RFC 6381 codec string: avc1, Main profile (4d), constraint_set1 as x264 writes it for Main (40), the rung's level as hex. */
export const codecString = (rung: Rung) => `avc1.4d40${Math.round(Number(rung.level) * 10).toString(16).padStart(2, '0')}`;

export interface MasterSource { width: number; height: number; hasAudio: boolean; /** The source's (every rung keeps it); null: not advertised. */ frameRate: number | null }

/** The master playlist for the rungs done so far. FRAME-RATE (three decimals, RFC 8216) lets players step one frame. */
export function masterPlaylist(rungs: readonly Rung[], source: MasterSource): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  const frameRate = source.frameRate ? `,FRAME-RATE=${source.frameRate.toFixed(3)}` : '';
  for (const r of rungs) {
    const w = Math.round((source.width / source.height) * r.height / 2) * 2;
    const codecs = [codecString(r), ...(source.hasAudio ? ['mp4a.40.2'] : [])].join(',');
    const bandwidth = (r.videoKbps + (source.hasAudio ? r.audioKbps : 0)) * 1000;
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${bandwidth},RESOLUTION=${w}x${r.height}${frameRate},CODECS="${codecs}"`, `${r.height}p/index.m3u8`);
  }
  return `${lines.join('\n')}\n`;
}

/** A poster frame from a third of the way in. */
export async function makePoster(input: string, outDir: string, durationMs: number): Promise<void> {
  const at = (durationMs / 3000).toFixed(2);
  const result = await run(binaryPath('ffmpeg'), ['-y', '-v', 'error', '-ss', at, '-i', input, '-frames:v', '1', '-vf', 'scale=-2:720', '-q:v', '3', join(outDir, 'poster.jpg')]);
  if (result.code !== 0) throw new Error(`poster failed: ${result.stderr.slice(-300)}`);
}

/** Seek previews: one 160 px frame every few seconds, tiled into one image. */
export async function makeStoryboard(input: string, outDir: string, durationMs: number, width: number, height: number) {
  const seconds = durationMs / 1000;
  const intervalSeconds = Math.max(1, Math.ceil(seconds / 100));
  const count = Math.max(1, Math.ceil(seconds / intervalSeconds));
  const columns = Math.min(10, count);
  const rows = Math.ceil(count / columns);
  const tileWidth = 160;
  const tileHeight = Math.round((tileWidth * height) / width / 2) * 2;
  const result = await run(binaryPath('ffmpeg'), [
    '-y', '-v', 'error', '-i', input, '-vf', `fps=1/${intervalSeconds},scale=${tileWidth}:${tileHeight},tile=${columns}x${rows}`,
    '-frames:v', '1', '-q:v', '5', join(outDir, 'storyboard.jpg'),
  ]);
  if (result.code !== 0) throw new Error(`storyboard failed: ${result.stderr.slice(-300)}`);
  return { file: 'storyboard.jpg', intervalSeconds, columns, rows, tileWidth, tileHeight, count };
}
