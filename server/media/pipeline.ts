import { join } from 'node:path';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import type { Logger } from '../logger.ts';
import { probeFrameRate, probeVideo } from './ffmpeg.ts';
import type { JobHandler } from '../jobs/queue.ts';
import {
  clearInterruptedWork,
  ladderFor,
  makePoster,
  makeStoryboard,
  masterPlaylist,
  masterPlaylistOf,
  rungsOf,
  transcodeRung,
  type Rung,
} from './hls.ts';
import type { MediaStore } from './media-store.ts';
import type { UploadStore } from './upload-store.ts';
import { makePosterSet } from './poster-set.ts';
import { extractSubtitleStreams } from './subtitle-streams.ts';
import type { Repositories } from '../repositories/index.ts';
import { createSubtitleService } from '../services/subtitles.ts';

import { FRAME_RATE_JOB, POSTER_SET_JOB, PROBE_JOB, TRANSCODE_JOB } from './paths.ts';
export { FRAME_RATE_JOB, POSTER_SET_JOB, PROBE_JOB, TRANSCODE_JOB };

/**
 * The probe step: the file must be a real video no longer than the upload's limit (at most
 * 1800 s); otherwise the media is rejected with a reason the uploader can read.
 */
export function probeJob(options: { repositories: Pick<Repositories, 'media'>; uploads: UploadStore; logger: Logger }) {
  const mediaRows = options.repositories.media;
  return async (payload: Record<string, unknown>) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.toProbe(mediaId);
    if (!media || media.status !== 'uploaded') return; // already decided (a retried job)
    const probe = await options.uploads.withLocalFile(media.uploadId, probeVideo);
    if (!probe.ok) {
      await mediaRows.recordProbe(mediaId, {}, probe.reason);
      return;
    }
    const { durationMs, width, height, videoCodec, audioCodec, frameRate } = probe.result;
    const tooLong = durationMs > media.max_duration_seconds * 1000;
    await mediaRows.recordProbe(
      mediaId,
      {
        duration_ms: durationMs,
        width,
        height,
        video_codec: videoCodec,
        audio_codec: audioCodec,
        frame_rate: frameRate,
      },
      tooLong ? 'TOO_LONG' : null,
      { job: TRANSCODE_JOB, payload: { mediaId } },
    );
    options.logger.info('media probed', { mediaId, durationMs, width, height, tooLong });
  };
}

/** Where a media item's HLS renditions, poster and storyboard live (under the media folder). */
export { hlsPath } from './paths.ts';
import { hlsPath } from './paths.ts';

/**
 * The transcode step: the lowest rung first, published at once with its master playlist and
 * the poster (status playable), then the higher rungs and the storyboard (status ready).
 * A retry goes on from the rungs an earlier attempt published, and the video stays playable
 * meanwhile; if the last attempt fails, a video with a rung published is finished as it is
 * (ready, without the rungs or storyboard that failed), and only one with none is failed.
 */
export function transcodeJob(options: {
  repositories: Repositories;
  uploads: UploadStore;
  media: MediaStore;
  logger: Logger;
}): JobHandler {
  const { media: mediaRows, subtitles: subtitleRows } = options.repositories;
  const subtitleService = createSubtitleService(options.repositories, { media: options.media, logger: options.logger });
  return async (payload, run) => {
    const mediaId = String(payload.mediaId);
    try {
      await transcode(mediaId, run.signal);
    } catch (error) {
      // Retried with back-off until the last attempt; then the uploader is told, not left waiting.
      // An attempt stopped by the worker (shutdown) is not a failure: the job runs again.
      if (run.isLastAttempt && !run.signal?.aborted) {
        const published = await mediaRows.byId(mediaId);
        await (published?.renditions.length ? mediaRows.markReady(mediaId) : mediaRows.markFailed(mediaId));
      }
      throw error;
    }
  };

  async function transcode(mediaId: string, signal?: AbortSignal) {
    const media = await mediaRows.byId(mediaId);
    if (!media || !['probed', 'transcoding', 'playable'].includes(media.status)) return;
    const { media: store } = options;
    const prefix = hlsPath(mediaId);
    // Each piece is made in this media's scratch folder and published whole to the media store.
    // An attempt killed midway left its partial files (and maybe its ffmpeg) there: cleared first.
    const work = store.scratchPath(`transcode-${mediaId}`);
    await clearInterruptedWork(work);
    await rm(work, { recursive: true, force: true });
    const publish = async <T>(make: (folder: string) => Promise<T>) => {
      await mkdir(work, { recursive: true });
      const made = await make(work);
      await store.publishFolder(prefix, work);
      return made;
    };
    const hasAudio = media.audio_codec !== null;
    const width = media.width!;
    const height = media.height!;
    if (media.status !== 'playable') await mediaRows.markTranscoding(mediaId);
    let storyboard;
    try {
      storyboard = await options.uploads.withLocalFile(media.upload_id, async (input) => {
        const done: Rung[] = rungsOf(media.renditions);
        for (const rung of ladderFor(height)) {
          if (done.some((r) => r.height === rung.height)) continue; // published by an earlier attempt
          const started = performance.now();
          await publish((folder) =>
            transcodeRung(input, folder, rung, hasAudio, { signal, durationMs: media.duration_ms ?? undefined }),
          );
          done.push(rung);
          // With the part's subtitle tracks: one added while the part is still transcoding stays listed.
          const subtitles = await subtitleRows.listOfMedia(mediaId);
          await store.put(
            `${prefix}/master.m3u8`,
            masterPlaylist(done, { width, height, hasAudio, frameRate: media.frame_rate }, subtitles),
          );
          let posterSet: string | undefined;
          if (done.length === 1) {
            posterSet = await publish(async (folder) => {
              await makePoster(input, folder, media.duration_ms!, { signal });
              return makePosterSet(await readFile(join(folder, 'poster.jpg')), (name, data) =>
                writeFile(join(folder, name), data),
              );
            });
          }
          await mediaRows.markPlayable(
            mediaId,
            done.map((r) => r.height),
            posterSet,
          );
          options.logger.info('rendition published', {
            mediaId,
            height: rung.height,
            ms: Math.round(performance.now() - started),
          });
        }
        if (media.stream_subtitles === null) await readSubtitleStreams(input, signal);
        return publish((folder) => makeStoryboard(input, folder, media.duration_ms!, width, height, { signal }));
      });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    await mediaRows.markReady(mediaId, { storyboard: JSON.stringify(storyboard) });

    /**
     * The file's text subtitle streams and fonts, published under the media folder and recorded,
     * then made the part's tracks if the media is already a video's part (else at its commit).
     * A file whose streams cannot be read at all still becomes a video, without them.
     */
    async function readSubtitleStreams(input: string, signal?: AbortSignal) {
      try {
        const found = await publish((folder) => extractSubtitleStreams(input, folder, { signal }));
        await subtitleRows.recordStreams(mediaId, found);
        const made = await subtitleService.adoptStreams(mediaId);
        options.logger.info('subtitle streams read', {
          mediaId,
          tracks: found.tracks.length,
          fonts: found.fonts.length,
          notes: found.notes.length,
          made,
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        options.logger.warn('subtitle streams not read', { mediaId, err: error });
      }
    }
  }
}

/**
 * Media transcoded before frame rates were recorded (migration 0013) have none, and their master
 * playlist no FRAME-RATE. Run at every start: queues a FRAME_RATE_JOB for each such published
 * media that never had one, so a media whose rendition gives no rate (or that failed all its
 * attempts) is not probed again at each start. Answers how many were queued.
 */
export const queueFrameRateBackfill = (mediaRows: Repositories['media']) =>
  mediaRows.queueVideoBackfill(FRAME_RATE_JOB, 'frame_rate');

/**
 * The frame-rate backfill: ffprobe reads the rate from the top published rendition (every rung
 * keeps the source's), then the master playlist is written again for the published rungs with
 * FRAME-RATE, and only then the rate stored (so a failure in between is retried from the start).
 */
export function frameRateJob(options: {
  repositories: Pick<Repositories, 'media' | 'subtitles'>;
  media: MediaStore;
  logger: Logger;
}): JobHandler {
  const { media: mediaRows, subtitles: subtitleRows } = options.repositories;
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.byId(mediaId);
    if (!media || media.frame_rate !== null || !media.renditions.length) return;
    const prefix = hlsPath(mediaId);
    const frameRate = await options.media.withScratchFolder((folder) =>
      probeRenditionFrameRate(options.media, `${prefix}/${Math.max(...media.renditions)}p`, folder),
    );
    if (!frameRate) {
      options.logger.warn('no frame rate in the rendition; the master playlist stays without FRAME-RATE', { mediaId });
      return;
    }
    await options.media.put(
      `${prefix}/master.m3u8`,
      masterPlaylistOf({ ...media, frame_rate: frameRate }, await subtitleRows.listOfMedia(mediaId)),
    );
    await mediaRows.setFacts(mediaId, { frame_rate: frameRate });
    options.logger.info('frame rate backfilled', { mediaId, frameRate });
  };
}

/**
 * The frame rate of a published rendition, read from its first segment: the init segment and
 * the first media segment, joined, are a playable fMP4 file (the store may be a bucket).
 */
async function probeRenditionFrameRate(
  store: MediaStore,
  renditionKey: string,
  folder: string,
): Promise<number | null> {
  const [init, first] = await Promise.all([
    store.read(`${renditionKey}/init.mp4`),
    store.read(`${renditionKey}/seg_0000.m4s`),
  ]);
  if (!init || !first) throw new Error(`the rendition ${renditionKey} has no init or first segment`);
  const sample = join(folder, 'sample.mp4');
  await writeFile(sample, Buffer.concat([init, first]));
  return probeFrameRate(sample);
}

/**
 * Media transcoded before poster sets existed (migration 0020) have only poster.jpg. Run at every
 * start, like the frame-rate backfill: one POSTER_SET_JOB per published media without a set that
 * never had one queued. Answers how many were queued.
 */
export const queuePosterSetBackfill = (mediaRows: Repositories['media']) =>
  mediaRows.queueVideoBackfill(POSTER_SET_JOB, 'poster_set');

/** The poster-set backfill: the sizes and formats made from the poster.jpg already published. */
export function posterSetJob(options: {
  repositories: Pick<Repositories, 'media'>;
  media: MediaStore;
  logger: Logger;
}): JobHandler {
  const mediaRows = options.repositories.media;
  return async (payload) => {
    const mediaId = String(payload.mediaId);
    const media = await mediaRows.byId(mediaId);
    if (!media || media.poster_set !== null || !media.renditions.length) return;
    const prefix = hlsPath(mediaId);
    const frame = await options.media.read(`${prefix}/poster.jpg`);
    if (!frame) throw new Error(`the media ${mediaId} has no poster.jpg to size`);
    const token = await makePosterSet(frame, (name, data) => options.media.put(`${prefix}/${name}`, data));
    await mediaRows.setFacts(mediaId, { poster_set: token });
    options.logger.info('poster set made', { mediaId, token });
  };
}
