import { describe, expect, it } from 'vitest';
import { partAt, partFromSearch, partSearch, partSpan, partStreamUrl } from '../../src/lib/player/parts.ts';
import { timeInPart, videoTimeOf } from '../../src/lib/player/part-span.ts';
import { readRuntimeConfig } from '../../src/lib/config.ts';

const parts = [{ duration: 10_000 }, { duration: 20_500 }, { duration: 5_000 }];

describe('parts of a video', () => {
  it('reads ?p as a 1-based part and falls back to P1', () => {
    expect(partFromSearch('?p=2', 3)).toBe(1);
    expect(partFromSearch('?p=3&t=4', 3)).toBe(2);
    for (const bad of ['', '?p=0', '?p=4', '?p=-1', '?p=abc', '?p=1e1', '?p=99999'])
      expect(partFromSearch(bad, 3)).toBe(0);
    expect(partFromSearch(new URLSearchParams('p=2'), 1)).toBe(0);
  });

  it('writes ?p keeping the other parameters and the hash', () => {
    expect(partSearch('http://x/en/video/kv5?t=3#c', 1)).toBe('/en/video/kv5?t=3&p=2#c');
    expect(partSearch('http://x/video/kv5?p=2', 0)).toBe('/video/kv5?p=1');
  });

  it('lays the parts end to end on the video’s timeline', () => {
    expect(partSpan(parts, 0)).toEqual({ offset: 0, length: 10, last: false });
    expect(partSpan(parts, 1)).toEqual({ offset: 10, length: 20.5, last: false });
    expect(partSpan(parts, 2)).toEqual({ offset: 30.5, length: 5, last: true });
  });

  it('keeps each part’s danmaku to that part, the last one also past its probed end', () => {
    const p1 = partSpan(parts, 0);
    const p2 = partSpan(parts, 1);
    const p3 = partSpan(parts, 2);
    expect(timeInPart(3, p1)).toBe(3);
    expect(timeInPart(10, p1)).toBeNull();
    expect(timeInPart(10, p2)).toBe(0);
    expect(timeInPart(9.99, p2)).toBeNull();
    expect(timeInPart(36, p3)).toBeCloseTo(5.5);
    // A part's own time goes back to the same place, never onto the next part.
    expect(videoTimeOf(4, p2)).toBe(14);
    expect(timeInPart(videoTimeOf(20.6, p2), p2)).not.toBeNull();
    expect(videoTimeOf(7, p3)).toBeCloseTo(37.5);
  });

  it('finds the part a history position lies in', () => {
    expect(partAt(parts, 0)).toBe(0);
    expect(partAt(parts, 9.9)).toBe(0);
    expect(partAt(parts, 10)).toBe(1);
    expect(partAt(parts, 31)).toBe(2);
    expect(partAt(parts, 999)).toBe(2);
    expect(partAt([], 5)).toBe(0);
  });
});

describe('the stream a part plays (PUBLIC_VIDEO_MANIFEST_URL, {videoId})', () => {
  const own = '/media/hls/0123456789abcdef01234567/master.m3u8';
  const cdn = readRuntimeConfig({ PUBLIC_VIDEO_MANIFEST_URL: 'https://cdn.example/v/{videoId}/master.m3u8' });

  it('plays part 1 from the template when it is set, the video id filled in', () => {
    expect(partStreamUrl(cdn, 42, 0, own)).toBe('https://cdn.example/v/42/master.m3u8');
  });

  it('plays the other parts from their own links: the template names only the default part', () => {
    expect(partStreamUrl(cdn, 42, 1, '/media/hls/p2/master.m3u8')).toBe('/media/hls/p2/master.m3u8');
  });

  it('plays each part from its own link when the template is left at its default', () => {
    expect(partStreamUrl(readRuntimeConfig({}), 42, 0, own)).toBe(own);
  });

  it('plays nothing for a part without a link (not published), template or not', () => {
    expect(partStreamUrl(cdn, 42, 0, null)).toBeNull();
    expect(partStreamUrl(cdn, 42, 0, undefined)).toBeNull();
  });
});
