/**
 * The background-image list of SPEC §3-§5, as pure operations: the database layer (db.ts) asks
 * these what to write, so the ordering rules are tested without a browser.
 */

/** What the browser database keeps per image (ImagesDB v1, store backgroundImages). */
export interface WallpaperRecord {
  imageData: Blob;
  filename: string;
  /** The image's place in the list, 0..count-1. */
  displayIndex: number;
  /** The dominant colour, '#rrggbb' (empty while unknown). */
  color: string;
}

/** A row of the list as the page shows it: the record's runtime key and a blob url. */
export interface WallpaperItem {
  key: number;
  displayIndex: number;
  filename: string;
  color: string;
  url: string;
}

/** The "no wallpaper" row every list starts with (SPEC §3). */
export const NO_WALLPAPER_KEY = -1;
export const PLACEHOLDER_ITEM: WallpaperItem = Object.freeze({
  key: NO_WALLPAPER_KEY,
  displayIndex: -1,
  filename: '',
  url: '',
  color: '',
});

export type Placed = Pick<WallpaperItem, 'key' | 'displayIndex'>;

/** Every operation on the list does nothing when the database is not open or the key is negative (SPEC §5). */
export function canOperate(isOpen: boolean, key: number): boolean {
  return isOpen && Number.isInteger(key) && key >= 0;
}

/** The placeholder first, then the images by displayIndex (ties by key, the order they were added). */
export function orderedWithPlaceholder<T extends Placed>(items: readonly T[], placeholder: T): T[] {
  return [
    placeholder,
    ...items.filter((item) => item.key >= 0).sort((a, b) => a.displayIndex - b.displayIndex || a.key - b.key),
  ];
}

/** A new image goes to the end of the list. */
export function nextDisplayIndex(items: readonly Placed[]): number {
  return items.reduce((max, item) => Math.max(max, item.displayIndex + 1), 0);
}

/** Reorder targets are clamped to 0..count-1 (SPEC §5). */
export function clampPosition(target: number, count: number): number {
  if (count <= 0) return 0;
  if (!Number.isFinite(target)) return target > 0 ? count - 1 : 0;
  return Math.min(Math.max(Math.trunc(target), 0), count - 1);
}

/**
 * Deleting an image shifts the displayIndex of every later image down by one (SPEC §4).
 * Returns the new displayIndex of each image that changes, by key; null when the key is unknown.
 */
export function shiftsAfterDelete(items: readonly Placed[], key: number): Map<number, number> | null {
  const removed = items.find((item) => item.key === key);
  if (!removed) return null;
  const shifts = new Map<number, number>();
  for (const item of items) {
    if (item.key !== key && item.displayIndex > removed.displayIndex) shifts.set(item.key, item.displayIndex - 1);
  }
  return shifts;
}

/**
 * Moving an image to `target` shifts the images between its old and new places by one towards
 * the gap, with the target clamped to the list (SPEC §4-§5). Returns the new displayIndex of
 * each image that changes (the moved one included), by key; null when the key is unknown.
 */
export function shiftsForMove(items: readonly Placed[], key: number, target: number): Map<number, number> | null {
  const moved = items.find((item) => item.key === key);
  if (!moved) return null;
  const to = clampPosition(target, items.length);
  const from = moved.displayIndex;
  const shifts = new Map<number, number>();
  if (to === from) return shifts;
  for (const item of items) {
    if (item.key === key) continue;
    const at = item.displayIndex;
    if (from < to && at > from && at <= to) shifts.set(item.key, at - 1);
    else if (from > to && at >= to && at < from) shifts.set(item.key, at + 1);
  }
  shifts.set(key, to);
  return shifts;
}

/** Applies a map of new displayIndex values to a list (for the page's copy after a write). */
export function applyShifts<T extends Placed>(items: readonly T[], shifts: ReadonlyMap<number, number>): T[] {
  return items.map((item) => (shifts.has(item.key) ? { ...item, displayIndex: shifts.get(item.key)! } : item));
}
