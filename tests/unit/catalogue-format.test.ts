import { describe, expect, it } from 'vitest';
import {
  formatClock,
  formatCount,
  formatDuration,
  formatUploadDate,
  groupByDay,
  pageHref,
  pageWindow,
  pagingFrom,
  pageCount,
  videoPath,
  watchedFraction,
} from '../../src/lib/catalogue/format.ts';

describe('catalogue formatting', () => {
  it('writes durations and positions as a player clock', () => {
    expect(formatClock(5)).toBe('0:05');
    expect(formatClock(83.9)).toBe('1:23');
    expect(formatClock(3723)).toBe('1:02:03');
    expect(formatClock(-3)).toBe('0:00');
    expect(formatClock(Number.NaN)).toBe('0:00');
    expect(formatDuration(83_000)).toBe('1:23');
  });

  it('counts compactly in the viewer’s language', () => {
    expect(formatCount(999, 'en')).toBe('999');
    expect(formatCount(1234, 'en')).toBe('1.2K');
    expect(formatCount(34_000, 'zhs')).toBe('3.4万');
    expect(formatCount(7, 'ii')).toBe('7');
  });

  it('says recent upload dates relatively and older ones as dates', () => {
    const now = Date.UTC(2026, 10, 22, 12);
    expect(formatUploadDate(now - 10_000, 'en', now)).toBe('now');
    expect(formatUploadDate(now - 5 * 60_000, 'en', now)).toBe('5 minutes ago');
    expect(formatUploadDate(now - 3 * 3_600_000, 'ja', now)).toBe('3 時間前');
    expect(formatUploadDate(now - 86_400_000 - 1000, 'en', now)).toBe('yesterday');
    expect(formatUploadDate(Date.UTC(2026, 0, 5), 'en', now)).toBe('Jan 5, 2026');
    expect(formatUploadDate(Date.UTC(2026, 0, 5), 'zhs', now)).toBe('2026年1月5日');
  });

  it('turns a history anchor into a progress fraction', () => {
    expect(watchedFraction(30, 60_000)).toBe(0.5);
    expect(watchedFraction(90, 60_000)).toBe(1);
    expect(watchedFraction(10, 0)).toBe(0);
  });

  it('groups history by local day: today, yesterday, then dates', () => {
    const now = Date.UTC(2026, 10, 22, 1, 0); // 10:00 in Tokyo (UTC+9, offset -540)
    const items = [now - 60_000, now - 2 * 3_600_000, now - 12 * 3_600_000, now - 36 * 3_600_000].map((at) => ({ at }));
    const groups = groupByDay(items, (i) => i.at, 'en', now, -540);
    expect(groups.map((g) => [g.kind, g.items.length])).toEqual([
      ['today', 2],
      ['yesterday', 1],
      ['date', 1],
    ]);
    expect(groups[2].label).toBe('Nov 20, 2026');
    // The same moments seen from UTC fall on other days.
    expect(groupByDay(items, (i) => i.at, 'en', now, 0).map((g) => [g.kind, g.items.length])).toEqual([
      ['today', 1],
      ['yesterday', 2],
      ['date', 1],
    ]);
  });

  it('reads paging from the query, clamped to what the API accepts', () => {
    expect(pagingFrom(new URLSearchParams(''))).toEqual({ page: 1, pageSize: 20 });
    expect(pagingFrom(new URLSearchParams('page=3&pageSize=2'))).toEqual({ page: 3, pageSize: 2 });
    expect(pagingFrom(new URLSearchParams('page=-1&pageSize=1000'))).toEqual({ page: 1, pageSize: 100 });
    expect(pagingFrom(new URLSearchParams('page=abc&pageSize=1.5'))).toEqual({ page: 1, pageSize: 20 });
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(41, 20)).toBe(3);
  });

  it('shows a pager window with gaps and keeps the rest of the query', () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 10)).toEqual([1, null, 3, 4, 5, 6, 7, null, 10]);
    expect(pageWindow(2, 4)).toEqual([1, 2, 3, 4]);
    expect(pageHref('/en/category?category=music&page=2', 3)).toBe('/en/category?category=music&page=3');
    expect(pageHref('/category?category=music&page=2', 1)).toBe('/category?category=music');
    expect(videoPath(12, 'ja')).toBe('/ja/video/kv12');
    expect(videoPath(12, 'zhs')).toBe('/video/kv12');
  });
});
