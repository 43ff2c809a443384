import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * ffmpeg and ffprobe: FFMPEG_PATH / FFPROBE_PATH, else the system's (usually newer, with more
 * codecs), else the binary an npm package ships, so a fresh machine needs nothing more.
 */
export function binaryPath(name: 'ffmpeg' | 'ffprobe'): string {
  const configured = process.env[`${name.toUpperCase()}_PATH`];
  if (configured) return configured;
  const system = onPath(name);
  if (system) return system;
  // Each package named in its own require, so the dependency check (knip) sees both.
  const installer = (
    name === 'ffmpeg' ? require('@ffmpeg-installer/ffmpeg') : require('@ffprobe-installer/ffprobe')
  ) as { path: string };
  return installer.path;
}

/**
 * Runs a binary with an argument array (never a shell), collecting its output. `signal` kills it
 * (the answer is then a rejection with the signal's reason); `onSpawn` learns its pid; with
 * `onStdout`, standard output goes to it as it comes (binary data, e.g. PCM samples) and is not collected.
 */
export function run(
  binary: string,
  args: string[],
  timeoutMs = 120_000,
  options: { signal?: AbortSignal; onSpawn?: (pid: number) => void; onStdout?: (chunk: Buffer) => void } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const { signal } = options;
    if (signal?.aborted) return reject(signal.reason);
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    if (child.pid) options.onSpawn?.(child.pid);
    const kill = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', kill, { once: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', options.onStdout ?? ((c: Buffer) => (stdout += c)));
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c).slice(-20_000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', kill);
      if (signal?.aborted) reject(signal.reason);
      else resolve({ code, stdout, stderr });
    });
  });
}

export interface ProbeResult {
  durationMs: number;
  width: number;
  height: number;
  videoCodec: string;
  audioCodec: string | null;
  /** Average frames per second, or null when the file does not say (or says something absurd). */
  frameRate: number | null;
}

/** ffprobe's '30000/1001' or '25/1' as a number; '0/0' and rates no real video has are unknown (null). */
export function parseFrameRate(value: string | undefined): number | null {
  const [num, den = '1'] = (value ?? '').split('/');
  const rate = Number(num) / Number(den);
  return Number.isFinite(rate) && rate >= 1 && rate <= 240 ? rate : null;
}

type StreamRates = { avg_frame_rate?: string; r_frame_rate?: string };
/** A stream's average frame rate, else its base rate. */
const streamFrameRate = (stream: StreamRates) =>
  parseFrameRate(stream.avg_frame_rate) ?? parseFrameRate(stream.r_frame_rate);

/**
 * The frame rate of a file's first video stream (an HLS rendition's index.m3u8 reads too), null
 * when it gives none. Throws when ffprobe cannot read the file at all.
 */
export async function probeFrameRate(file: string): Promise<number | null> {
  const { code, stdout, stderr } = await run(binaryPath('ffprobe'), [
    '-v',
    'error',
    '-select_streams',
    'v:0',
    '-show_entries',
    'stream=avg_frame_rate,r_frame_rate',
    '-print_format',
    'json',
    file,
  ]);
  if (code !== 0) throw new Error(`ffprobe cannot read ${file}: ${stderr.trim().slice(-300)}`);
  const stream = (JSON.parse(stdout || '{}') as { streams?: StreamRates[] }).streams?.[0];
  return stream ? streamFrameRate(stream) : null;
}

export type ProbeFailure = 'NOT_A_VIDEO' | 'CORRUPT';

/** Seconds from the start of a video that must decode for it to pass the probe. */
const DECODE_CHECK_SECONDS = 5;

/** How many frames of one stream decode in the file's first DECODE_CHECK_SECONDS (0 when none or on failure). */
async function framesDecodedAtStart(file: string, streamIndex: number): Promise<number> {
  const { code, stdout } = await run(binaryPath('ffprobe'), [
    '-v',
    'quiet',
    '-select_streams',
    String(streamIndex),
    '-read_intervals',
    `%+${DECODE_CHECK_SECONDS}`,
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  const frames = Number(stdout.trim());
  return code === 0 && Number.isFinite(frames) ? frames : 0;
}

/** What ffprobe finds in a file: a real video stream with a duration, or why not. */
/**
 * A stream's own length in seconds: ffprobe's `duration`, or the `DURATION` tag Matroska writes
 * per stream ('00:00:02.000000000'); null when the stream does not say.
 */
export function streamSeconds(stream: { duration?: string; tags?: Record<string, string> }): number | null {
  const stated = Number(stream.duration);
  if (stream.duration !== undefined && Number.isFinite(stated) && stated > 0) return stated;
  const tag = stream.tags?.DURATION ?? stream.tags?.duration;
  const parts = tag?.match(/^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/);
  if (!parts) return null;
  const seconds = Number(parts[1]) * 3600 + Number(parts[2]) * 60 + Number(parts[3]);
  return seconds > 0 ? seconds : null;
}

export async function probeVideo(
  file: string,
): Promise<{ ok: true; result: ProbeResult } | { ok: false; reason: ProbeFailure }> {
  const { code, stdout } = await run(binaryPath('ffprobe'), [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  if (code !== 0) return { ok: false, reason: 'NOT_A_VIDEO' };
  const info = JSON.parse(stdout || '{}') as {
    format?: { duration?: string; format_name?: string };
    streams?: Array<{
      index?: number;
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      duration?: string;
      avg_frame_rate?: string;
      r_frame_rate?: string;
      disposition?: { attached_pic?: number };
      tags?: Record<string, string>;
    }>;
  };
  // A still picture is not a video, even inside a container that allows one.
  const video = info.streams?.find(
    (s) =>
      s.codec_type === 'video' &&
      !s.disposition?.attached_pic &&
      !['mjpeg', 'png', 'gif', 'webp', 'bmp'].includes(s.codec_name ?? ''),
  );
  if (!video) return { ok: false, reason: 'NOT_A_VIDEO' };
  const audio = info.streams?.find((s) => s.codec_type === 'audio');
  // What plays is the picture and the sound: a subtitle stream that runs on past them makes the
  // container longer, and a rendition of the real length must not be judged short against it.
  const played = [video, audio]
    .map((stream) => (stream ? streamSeconds(stream) : null))
    .filter((d): d is number => d !== null);
  const seconds = played.length ? Math.max(...played) : Number(info.format?.duration);
  if (!Number.isFinite(seconds) || seconds <= 0 || !video.width || !video.height)
    return { ok: false, reason: 'CORRUPT' };
  // The header alone can look fine while the data after it is damaged (ffmpeg would then fail
  // to transcode it again and again): some frames must decode from the start.
  if ((await framesDecodedAtStart(file, video.index ?? 0)) === 0) return { ok: false, reason: 'CORRUPT' };
  return {
    ok: true,
    result: {
      durationMs: Math.round(seconds * 1000),
      width: video.width,
      height: video.height,
      videoCodec: video.codec_name ?? 'unknown',
      audioCodec: audio?.codec_name ?? null,
      frameRate: streamFrameRate(video),
    },
  };
}
