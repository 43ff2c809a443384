import { MAX_VIDEO_DURATION_S, type UploadOptions } from './uploads.ts';
import { PROBE_JOB } from './pipeline.ts';
import { AUDIO_PROBE_JOB } from './audio-pipeline.ts';
import { PHOTO_PROBE_JOB } from './photo-files.ts';
import { PHOTO_MAX_BYTES } from '../../src/lib/api/contracts/photo.constants.ts';
import { MAX_AUDIO_DURATION_S } from '../../src/lib/api/contracts/audio.constants.ts';

/** What the resumable upload endpoint takes (its `kind`): each with its permission, size and duration limits and probe job. */
export function uploadKinds(limits: { uploadMaxBytes: number; audioUploadMaxBytes: number }): UploadOptions['kinds'] {
  return {
    video: {
      permission: 'video.upload',
      maxBytes: limits.uploadMaxBytes,
      maxDurationSeconds: MAX_VIDEO_DURATION_S,
      probeJob: PROBE_JOB,
    },
    audio: {
      permission: 'audio.upload',
      maxBytes: limits.audioUploadMaxBytes,
      maxDurationSeconds: MAX_AUDIO_DURATION_S,
      probeJob: AUDIO_PROBE_JOB,
    },
    photo: { permission: 'photo.upload', maxBytes: PHOTO_MAX_BYTES, maxDurationSeconds: 0, probeJob: PHOTO_PROBE_JOB },
  };
}
