/**
 * How video lists present numbers, times and pages: shared by the Astro cards (rendered on the
 * server) and the React islands (search, history), so both say the same thing the same way.
 */
import { LOCALE_INFO, localizePath, type Locale } from '../i18n/locales.ts';

const DAY_MS = 86_400_000;

/** Intl wants a BCP 47 tag; 'ii' (key-display mode) reads like English. */
export const intlLang = (locale: Locale) => (locale === 'ii' ? 'en-US' : LOCALE_INFO[locale].htmlLang);

/** Seconds as a clock: 0:05, 1:23, 1:02:03 (what a player shows). */
export function formatClock(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(Number.isFinite(totalSeconds) ? totalSeconds : 0));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const seconds = String(s % 60).padStart(2, '0');
  return hours ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A video's duration badge; durations travel in milliseconds. */
export const formatDuration = (ms: number) => formatClock(ms / 1000);

/** Watch counts: 999, 1.2K, 3.4万 (compact, in the viewer's language). */
export function formatCount(count: number, locale: Locale): string {
  return new Intl.NumberFormat(intlLang(locale), { notation: 'compact', maximumFractionDigits: 1 }).format(count);
}

/** A date in the locale's own format (2026/11/22, 22/11/2026, Nov 22, 2026 …). */
export function formatDate(epochMs: number, locale: Locale, timeZone?: string): string {
  return new Intl.DateTimeFormat(intlLang(locale), {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    timeZone,
  }).format(epochMs);
}

/** Upload dates: relative while recent ("3 hours ago"), the date after a week. */
export function formatUploadDate(epochMs: number, locale: Locale, now = Date.now()): string {
  const elapsed = Math.max(0, now - epochMs);
  if (elapsed >= 7 * DAY_MS) return formatDate(epochMs, locale);
  const rtf = new Intl.RelativeTimeFormat(intlLang(locale), { numeric: 'auto' });
  if (elapsed < 60_000) return rtf.format(0, 'second');
  if (elapsed < 3_600_000) return rtf.format(-Math.floor(elapsed / 60_000), 'minute');
  if (elapsed < DAY_MS) return rtf.format(-Math.floor(elapsed / 3_600_000), 'hour');
  return rtf.format(-Math.floor(elapsed / DAY_MS), 'day');
}

/** A card's upload date as the viewer prefers: relative while recent (the default), or always the date. */
export function formatCardDate(epochMs: number, locale: Locale, relative: boolean, now = Date.now()): string {
  return relative ? formatUploadDate(epochMs, locale, now) : formatDate(epochMs, locale);
}

/** How far into a video someone got, as a fraction 0..1 for a progress bar. */
export function watchedFraction(anchorSeconds: number, durationMs: number): number {
  if (!(durationMs > 0)) return 0;
  return Math.min(1, Math.max(0, (anchorSeconds * 1000) / durationMs));
}

export const videoPath = (videoId: number, locale: Locale) => localizePath(`/video/kv${videoId}`, locale);
export const userPath = (uid: number, locale: Locale) => localizePath(`/user/${uid}`, locale);
export const audioPath = (audioId: number, locale: Locale) => localizePath(`/audio/ka${audioId}`, locale);
export const collectionPath = (collectionId: number, locale: Locale) =>
  localizePath(`/collections/${collectionId}`, locale);
/** A video played from a collection: the collection stays in the address (the page shows its list and what comes next). */
export const videoInCollectionPath = (videoId: number, collectionId: number, locale: Locale) =>
  `${videoPath(videoId, locale)}?collection=${collectionId}`;

// ---- Grouping by day (history) ----
export type DayKind = 'today' | 'yesterday' | 'date';
export interface DayGroup<T> {
  kind: DayKind /** the date in the locale's format (for kind 'date') */;
  label: string;
  items: T[];
}

/** Local calendar day number of a time (days since the epoch, in the viewer's time zone). */
function localDay(epochMs: number, offsetMinutes: number): number {
  return Math.floor((epochMs - offsetMinutes * 60_000) / DAY_MS);
}

/**
 * Items (already newest first) in runs of the same local day: today, yesterday, then dates.
 * `offsetMinutes` is Date#getTimezoneOffset() of the viewer (tests pass it explicitly).
 */
export function groupByDay<T>(
  items: readonly T[],
  timeOf: (item: T) => number,
  locale: Locale,
  now = Date.now(),
  offsetMinutes = new Date(now).getTimezoneOffset(),
): DayGroup<T>[] {
  const today = localDay(now, offsetMinutes);
  const groups: Array<DayGroup<T> & { day: number }> = [];
  for (const item of items) {
    const day = localDay(timeOf(item), offsetMinutes);
    let group = groups.at(-1);
    if (!group || group.day !== day) {
      const kind: DayKind = day === today ? 'today' : day === today - 1 ? 'yesterday' : 'date';
      const label = formatDate(day * DAY_MS, locale, 'UTC');
      group = { day, kind, label, items: [] };
      groups.push(group);
    }
    group.items.push(item);
  }
  return groups.map(({ kind, label, items: list }) => ({ kind, label, items: list }));
}

// ---- Paging ----
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/** page and pageSize from a page's query string, clamped to what the API accepts. */
export function pagingFrom(
  params: URLSearchParams,
  defaultSize = DEFAULT_PAGE_SIZE,
): { page: number; pageSize: number } {
  const int = (value: string | null, fallback: number, max: number) => {
    const n = Number(value);
    return Number.isInteger(n) && n >= 1 ? Math.min(n, max) : fallback;
  };
  return {
    page: int(params.get('page'), 1, 10_000),
    pageSize: int(params.get('pageSize'), defaultSize, MAX_PAGE_SIZE),
  };
}

export const pageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

/** The page numbers a pager shows: first, last and two around the current one; null marks a gap. */
export function pageWindow(current: number, total: number): Array<number | null> {
  const wanted = new Set(
    [1, total, current - 2, current - 1, current, current + 1, current + 2].filter((p) => p >= 1 && p <= total),
  );
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: Array<number | null> = [];
  sorted.forEach((p, i) => {
    if (i > 0 && p - sorted[i - 1] > 1) out.push(null);
    out.push(p);
  });
  return out;
}

/** The same address on another page (page 1 drops the parameter; the rest of the query stays). */
export function pageHref(pathWithQuery: string, page: number): string {
  const url = new URL(pathWithQuery, 'http://x');
  if (page <= 1) url.searchParams.delete('page');
  else url.searchParams.set('page', String(page));
  return url.pathname + url.search;
}
