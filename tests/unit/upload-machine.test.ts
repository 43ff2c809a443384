import { describe, expect, it } from 'vitest';
import {
  addSample,
  canApply,
  initialUpload,
  MISSING_MEDIA_ID,
  percentDone,
  secondsLeft,
  transition,
  uploadSpeed,
  type UploadEvent,
  type UploadSnapshot,
  type UploadState,
} from '../../src/lib/upload/machine.ts';
import { factsFromTracks, refusalOf } from '../../src/lib/upload/media-info.ts';

const run = (...events: UploadEvent[]) => events.reduce(transition, initialUpload);
const uploading = () => run({ type: 'create', bytesTotal: 1000 }, { type: 'start' });
const STATES: UploadState[] = ['pending', 'created', 'uploading', 'pausing', 'success', 'error'];
const at = (state: UploadState): UploadSnapshot => ({ ...initialUpload, state, bytesTotal: 1000 });

describe('the upload state machine (SPEC §4)', () => {
  it('goes pending → created → uploading → success with the media id', () => {
    expect(initialUpload.state).toBe('pending');
    const created = run({ type: 'create', bytesTotal: 1000 });
    expect(created).toMatchObject({ state: 'created', bytesTotal: 1000 });
    const done = transition(transition(created, { type: 'start' }), { type: 'finish', mediaId: 'abc' });
    expect(done).toMatchObject({ state: 'success', mediaId: 'abc', bytesUploaded: 1000, error: null });
  });

  it('pauses only from uploading, and resumes only from pausing', () => {
    for (const state of STATES) {
      expect(canApply(state, 'pause')).toBe(state === 'uploading');
      expect(canApply(state, 'resume')).toBe(state === 'pausing');
      const paused = transition(at(state), { type: 'pause' });
      expect(paused.state).toBe(state === 'uploading' ? 'pausing' : state);
      const resumed = transition(at(state), { type: 'resume' });
      expect(resumed.state).toBe(state === 'pausing' ? 'uploading' : state);
    }
    const again = transition(transition(uploading(), { type: 'pause' }), { type: 'resume' });
    expect(again.state).toBe('uploading');
  });

  it('fails with "Can not find the video ID" when the upload service returned no media id', () => {
    for (const mediaId of [null, undefined, '']) {
      expect(transition(uploading(), { type: 'finish', mediaId })).toMatchObject({
        state: 'error',
        error: MISSING_MEDIA_ID,
        mediaId: null,
      });
    }
    expect(MISSING_MEDIA_ID).toBe('Can not find the video ID');
  });

  it('turns any upload error into the error state, but never undoes a success', () => {
    for (const state of ['pending', 'created', 'uploading', 'pausing'] as const) {
      expect(transition(at(state), { type: 'fail', error: 'boom' })).toMatchObject({ state: 'error', error: 'boom' });
    }
    const success = transition(uploading(), { type: 'finish', mediaId: 'abc' });
    expect(transition(success, { type: 'fail', error: 'late' })).toBe(success);
  });

  it('ignores events out of order and progress outside an upload', () => {
    expect(transition(initialUpload, { type: 'start' })).toBe(initialUpload);
    expect(transition(initialUpload, { type: 'finish', mediaId: 'abc' })).toBe(initialUpload);
    const paused = transition(uploading(), { type: 'pause' });
    expect(transition(paused, { type: 'progress', bytesUploaded: 500, bytesTotal: 1000 })).toBe(paused);
    expect(transition(uploading(), { type: 'progress', bytesUploaded: 500, bytesTotal: 1000 }).bytesUploaded).toBe(500);
  });
});

describe('upload speed and time left', () => {
  it('measures bytes per second over the recent window', () => {
    let samples = addSample([], { at: 0, bytes: 0 });
    expect(uploadSpeed(samples)).toBe(0);
    samples = addSample(samples, { at: 1000, bytes: 2_000_000 });
    samples = addSample(samples, { at: 2000, bytes: 4_000_000 });
    expect(uploadSpeed(samples)).toBe(2_000_000);
    // After a slow-down, old samples leave the 5 s window and the speed follows.
    for (let s = 3; s <= 10; s++) samples = addSample(samples, { at: s * 1000, bytes: 4_000_000 + (s - 2) * 500_000 });
    expect(uploadSpeed(samples)).toBe(500_000);
    expect(samples[0].at).toBe(5000);
  });

  it('starts a new measurement when the offset goes back (a resume from the server offset)', () => {
    let samples = addSample(addSample([], { at: 0, bytes: 0 }), { at: 1000, bytes: 5000 });
    samples = addSample(samples, { at: 2000, bytes: 3000 });
    expect(samples).toEqual([{ at: 2000, bytes: 3000 }]);
    expect(uploadSpeed(samples)).toBe(0);
  });

  it('tells the seconds left, rounded up, or null without a speed', () => {
    expect(secondsLeft(4_000_000, 10_000_000, 2_000_000)).toBe(3);
    expect(secondsLeft(4_000_000, 10_000_001, 2_000_000)).toBe(4);
    expect(secondsLeft(0, 10, 0)).toBeNull();
    expect(secondsLeft(10, 10, 0)).toBe(0);
  });

  it('shows whole percents and 100 only at the last byte', () => {
    expect(percentDone(0, 0)).toBe(0);
    expect(percentDone(333, 1000)).toBe(33);
    expect(percentDone(999, 1000)).toBe(99);
    expect(percentDone(1000, 1000)).toBe(100);
  });
});

describe('the media-info check before an upload', () => {
  const clip = [
    { '@type': 'General', Duration: 20.04, Format: 'MPEG-4' },
    { '@type': 'Video', Format: 'AVC', Width: 1280, Height: 720 },
    { '@type': 'Audio', Format: 'AAC' },
  ];
  it('reads duration and codecs from mediainfo tracks', () => {
    expect(factsFromTracks(clip)).toEqual({
      duration: 20.04,
      videoCodec: 'AVC',
      audioCodec: 'AAC',
      width: 1280,
      height: 720,
    });
    expect(factsFromTracks([{ '@type': 'General' }])).toEqual({
      duration: null,
      videoCodec: null,
      audioCodec: null,
      width: null,
      height: null,
    });
  });
  it('refuses a file without video and one longer than the limit', () => {
    expect(refusalOf(factsFromTracks(clip), 1800)).toBeNull();
    expect(
      refusalOf(
        factsFromTracks([
          { '@type': 'General', Duration: 1800.5 },
          { '@type': 'Video', Format: 'AVC' },
        ]),
        1800,
      ),
    ).toBe('TOO_LONG');
    expect(
      refusalOf(
        factsFromTracks([
          { '@type': 'General', Duration: 1800 },
          { '@type': 'Video', Format: 'AVC' },
        ]),
        1800,
      ),
    ).toBeNull();
    expect(refusalOf(factsFromTracks([{ '@type': 'General' }, { '@type': 'Audio', Format: 'MP3' }]), 1800)).toBe(
      'NOT_A_VIDEO',
    );
  });
});
