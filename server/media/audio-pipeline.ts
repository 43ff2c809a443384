/**
 * The audio pipeline (issue 13): probe an uploaded file as audio, then in one decode transcode
 * it to AAC (a progressive stream and a low HLS rung), measure its EBU R128 loudness, read its
 * waveform peaks and extract an embedded cover; a stream copy makes the high HLS rung. Every
 * file goes under the media item's folder (paths.ts), as a video's renditions do.
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger.ts';
import type { UploadStore } from './upload-store.ts';
import type { MediaStore } from './media-store.ts';
import { binaryPath, run } from './ffmpeg.ts';
import type { JobHandler } from '../jobs/queue.ts';
import type { Repositories } from '../repositories/index.ts';
import { hlsPath } from './paths.ts';

export const AUDIO_PROBE_JOB = 'audio.probe';
export const AUDIO_TRANSCODE_JOB = 'audio.transcode';

/** The files of a processed track, under its media folder. */
export const AUDIO_FILES = { master: 'master.m3u8', progressive: 'stream.m4a', cover: 'cover.jpg' } as const;
/** The HLS rungs (kbps): the high one is the progressive stream's AAC copied into segments. */
export const AUDIO_RUNGS = [64, 128] as const;
const PROGRESSIVE_KBPS = 128;
const SEGMENT_SECONDS = 6;
/** How many peak levels the waveform keeps, and the rate the peaks are read at (plenty for ~1000 points). */
export const WAVEFORM_POINTS = 1000;
const PEAK_SAMPLE_RATE = 4000;
/** Codecs of the formats we take: mp3, AAC (m4a/aac), ALAC, FLAC, WAV (PCM), Ogg Vorbis and Opus. */
const AUDIO_CODECS = /^(mp3|mp2|aac|alac|flac|vorbis|opus|pcm_[a-z0-9]+)$/;
/** Still pictures (an embedded cover) are not video. */
const PICTURE_CODECS = new Set(['mjpeg', 'png', 'gif', 'webp', 'bmp']);

export type AudioProbeFailure = 'NOT_AUDIO' | 'CORRUPT';
export interface AudioProbe {
  durationMs: number;
  codec: string;
  /** The stream index of an embedded cover picture, if there is one. */
  coverStream: number | null;
}

/** What ffprobe finds in a file: one readable audio stream of a format we take, and no moving picture; or why not. */
export async function probeAudio(
  file: string,
): Promise<{ ok: true; result: AudioProbe } | { ok: false; reason: AudioProbeFailure }> {
  const { code, stdout } = await run(binaryPath('ffprobe'), [
    '-v',
    'error',
    '-print_format',
    'json',
    '-show_format',
    '-show_streams',
    file,
  ]);
  if (code !== 0) return { ok: false, reason: 'NOT_AUDIO' };
  const info = JSON.parse(stdout || '{}') as {
    format?: { duration?: string };
    streams?: Array<{
      index?: number;
      codec_type?: string;
      codec_name?: string;
      duration?: string;
      disposition?: { attached_pic?: number };
    }>;
  };
  const streams = info.streams ?? [];
  const picture = (s: (typeof streams)[number]) =>
    s.codec_type === 'video' && (!!s.disposition?.attached_pic || PICTURE_CODECS.has(s.codec_name ?? ''));
  // A film with a soundtrack is a video: it belongs in the video section.
  if (streams.some((s) => s.codec_type === 'video' && !picture(s))) return { ok: false, reason: 'NOT_AUDIO' };
  const audio = streams.find((s) => s.codec_type === 'audio');
  if (!audio || !AUDIO_CODECS.test(audio.codec_name ?? '')) return { ok: false, reason: 'NOT_AUDIO' };
  const seconds = Number(info.format?.duration ?? audio.duration);
  if (!Number.isFinite(seconds) || seconds <= 0) return { ok: false, reason: 'CORRUPT' };
  // A good header over damaged data: some audio must decode from the start.
  const decoded = await run(binaryPath('ffprobe'), [
    '-v',
    'quiet',
    '-select_streams',
    String(audio.index ?? 0),
    '-read_intervals',
    '%+5',
    '-count_packets',
    '-count_frames',
    '-show_entries',
    'stream=nb_read_frames',
    '-of',
    'csv=p=0',
    file,
  ]);
  if (decoded.code !== 0 || !(Number(decoded.stdout.trim()) > 0)) return { ok: false, reason: 'CORRUPT' };
  const cover = streams.find(picture);
  return {
    ok: true,
    result: { durationMs: Math.round(seconds * 1000), codec: audio.codec_name!, coverStream: cover?.index ?? null },
  };
}

/**
 * The ffmpeg runs that process a track, as argument arrays (the benchmark replays exactly these):
 * `main` decodes once into the progressive AAC, the low HLS rung, the loudness meter, the
 * peaks (16-bit mono PCM on stdout) and the cover; `highRung` copies the progressive AAC into
 * HLS segments.
 */
export function audioCommands(
  input: string,
  outDir: string,
  probe: AudioProbe,
): { main: string[]; highRung: string[] } {
  const hls = (rung: number) => [
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
    join(outDir, `${rung}k`, 'seg_%04d.m4s'),
    join(outDir, `${rung}k`, 'index.m3u8'),
  ];
  const aac = (kbps: number) => ['-c:a', 'aac', '-b:a', `${kbps}k`, '-ac', '2', '-ar', '44100'];
  const main = [
    '-y',
    '-nostdin',
    '-hide_banner',
    '-nostats',
    '-v',
    'info',
    '-i',
    input,
    '-filter_complex',
    `[0:a:0]asplit=4[progressive][low][meter][peaks];[meter]ebur128=peak=true[metered];[peaks]aresample=${PEAK_SAMPLE_RATE},aformat=sample_fmts=s16:channel_layouts=mono[levels]`,
    '-map',
    '[progressive]',
    ...aac(PROGRESSIVE_KBPS),
    '-movflags',
    '+faststart',
    join(outDir, AUDIO_FILES.progressive),
    '-map',
    '[low]',
    ...aac(AUDIO_RUNGS[0]),
    ...hls(AUDIO_RUNGS[0]),
    '-map',
    '[metered]',
    '-f',
    'null',
    '-',
    '-map',
    '[levels]',
    '-f',
    's16le',
    'pipe:1',
    ...(probe.coverStream === null
      ? []
      : [
          '-map',
          `0:${probe.coverStream}`,
          '-frames:v',
          '1',
          '-vf',
          "scale='min(1200,iw)':-2",
          '-q:v',
          '3',
          join(outDir, AUDIO_FILES.cover),
        ]),
  ];
  const highRung = [
    '-y',
    '-nostdin',
    '-v',
    'error',
    '-i',
    join(outDir, AUDIO_FILES.progressive),
    '-map',
    '0:a:0',
    '-c',
    'copy',
    ...hls(AUDIO_RUNGS[1]),
  ];
  return { main, highRung };
}

/** Folds 16-bit PCM samples, as they stream in, into `points` peak levels (0..1) over `expectedSamples`. */
export function createPeakMeter(expectedSamples: number, points = WAVEFORM_POINTS) {
  const peaks = new Float64Array(points);
  let index = 0;
  let carry: Buffer | null = null;
  const perPoint = Math.max(1, expectedSamples / points);
  return {
    push(chunk: Buffer) {
      const data = carry ? Buffer.concat([carry, chunk]) : chunk;
      const whole = data.length - (data.length % 2);
      // A copy into an aligned Int16Array (little-endian, as ffmpeg's s16le and every host we run on).
      const samples = new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + whole));
      for (let i = 0; i < samples.length; i++, index++) {
        const point = Math.min(points - 1, Math.floor(index / perPoint));
        const level = Math.abs(samples[i]) / 32768;
        if (level > peaks[point]) peaks[point] = level;
      }
      carry = whole < data.length ? data.subarray(whole) : null;
    },
    /** The levels, to three decimals; a track shorter than `points` samples keeps the points it filled. */
    result(): number[] {
      const filled = Math.min(points, Math.max(1, Math.ceil(index / perPoint)));
      return Array.from(peaks.subarray(0, filled), (p) => Math.round(p * 1000) / 1000);
    },
  };
}

/** ebur128's summary at the end of ffmpeg's log: integrated loudness (LUFS) and true peak (dBTP). */
export function parseLoudness(log: string): { integratedLufs: number; truePeakDb: number } | null {
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+|-inf) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary);
  if (!integrated || !peak) return null;
  const value = (text: string) => (text === '-inf' ? -120 : Number(text));
  return { integratedLufs: value(integrated[1]), truePeakDb: value(peak[1]) };
}

/** The master playlist of the audio rungs (AAC-LC). */
export function audioMasterPlaylist(): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:7', '#EXT-X-INDEPENDENT-SEGMENTS'];
  for (const kbps of AUDIO_RUNGS)
    lines.push(`#EXT-X-STREAM-INF:BANDWIDTH=${(kbps + 8) * 1000},CODECS="mp4a.40.2"`, `${kbps}k/index.m3u8`);
  return `${lines.join('\n')}\n`;
}

export interface ProcessedAudio {
  waveform: number[];
  loudness: { integratedLufs: number; truePeakDb: number } | null;
  coverFile: string | null;
}

/** Processes one probed file into `outDir`: the streams, the master playlist last (players find a complete set). */
export async function processAudio(input: string, outDir: string, probe: AudioProbe): Promise<ProcessedAudio> {
  await Promise.all(AUDIO_RUNGS.map((kbps) => mkdir(join(outDir, `${kbps}k`), { recursive: true })));
  const commands = audioCommands(input, outDir, probe);
  const meter = createPeakMeter((probe.durationMs / 1000) * PEAK_SAMPLE_RATE);
  // Hours of audio: bounded by the track's length, never minutes per minute.
  const timeoutMs = Math.max(10 * 60_000, probe.durationMs * 2);
  const main = await run(binaryPath('ffmpeg'), commands.main, timeoutMs, { onStdout: (chunk) => meter.push(chunk) });
  if (main.code !== 0) throw new Error(`ffmpeg failed for the audio: ${main.stderr.slice(-500)}`);
  const high = await run(binaryPath('ffmpeg'), commands.highRung, timeoutMs);
  if (high.code !== 0) throw new Error(`ffmpeg failed for the ${AUDIO_RUNGS[1]}k rung: ${high.stderr.slice(-500)}`);
  const tmp = join(outDir, `${AUDIO_FILES.master}.tmp`);
  await writeFile(tmp, audioMasterPlaylist());
  await rename(tmp, join(outDir, AUDIO_FILES.master));
  return {
    waveform: meter.result(),
    loudness: parseLoudness(main.stderr),
    coverFile: probe.coverStream === null ? null : AUDIO_FILES.cover,
  };
}

/**
 * The probe step of an audio upload: a readable audio file no longer than the upload's limit,
 * else refused with a reason the uploader can read (NOT_AUDIO, TOO_LONG, CORRUPT).
 */
export function audioProbeJob(options: {
  repositories: Pick<Repositories, 'media'>;
  uploads: UploadStore;
  logger: Logger;
}): JobHandler {
  const mediaRows = options.repositories.media;
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.toProbe(mediaId);
    if (!media || media.status !== 'uploaded') return;
    const probe = await options.uploads.withLocalFile(media.uploadId, probeAudio);
    if (!probe.ok) {
      await mediaRows.recordProbe(mediaId, {}, probe.reason);
      options.logger.info('audio refused', { mediaId, reason: probe.reason });
      return;
    }
    const { durationMs, codec } = probe.result;
    const tooLong = durationMs > media.max_duration_seconds * 1000;
    // The probe's findings travel with the job, so the file is not probed twice.
    await mediaRows.recordProbe(mediaId, { duration_ms: durationMs, audio_codec: codec }, tooLong ? 'TOO_LONG' : null, {
      job: AUDIO_TRANSCODE_JOB,
      payload: { mediaId, probe: probe.result },
    });
    options.logger.info('audio probed', { mediaId, durationMs, codec, tooLong });
  };
}

/** The processing step: streams, waveform, loudness and cover, then ready; failed after the last attempt. */
export function audioTranscodeJob(options: {
  repositories: Pick<Repositories, 'media'>;
  uploads: UploadStore;
  media: MediaStore;
  logger: Logger;
}): JobHandler {
  const mediaRows = options.repositories.media;
  return async (payload, run) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.byId(mediaId);
    if (!media || !['probed', 'transcoding'].includes(media.status)) return;
    await mediaRows.markTranscoding(mediaId);
    const started = performance.now();
    try {
      const probe = payload.probe as AudioProbe;
      // Made in a scratch folder and published whole to the media store (a folder or a bucket).
      const processed = await options.uploads.withLocalFile(media.upload_id, (input) =>
        options.media.withScratchFolder(async (folder) => {
          const made = await processAudio(input, folder, probe);
          await options.media.publishFolder(hlsPath(mediaId), folder);
          return made;
        }),
      );
      await mediaRows.markReady(mediaId, {
        renditions: [...AUDIO_RUNGS],
        waveform: JSON.stringify(processed.waveform),
        loudness_lufs: processed.loudness?.integratedLufs ?? null,
        true_peak_db: processed.loudness?.truePeakDb ?? null,
        cover_file: processed.coverFile,
      });
      options.logger.info('audio processed', {
        mediaId,
        ms: Math.round(performance.now() - started),
        loudness: processed.loudness,
      });
    } catch (error) {
      if (run.isLastAttempt) await mediaRows.markFailed(mediaId);
      throw error;
    }
  };
}
