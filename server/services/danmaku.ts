import type { Repositories } from '../repositories/index.ts';
import type { DanmakuRepository, TimeWindow } from '../repositories/danmaku.repository.ts';
import { DomainError, NotFound } from '../domain/errors.ts';
import { recordStaffAction } from './moderation-log.ts';
import type { RateLimitName } from '../../src/lib/api/limits.ts';
import { DANMAKU_SEGMENT_SECONDS } from '../../src/lib/api/contracts/interaction.constants.ts';
import type { Danmaku, DanmakuListResponse, danmakuEmitBody } from '../../src/lib/api/contracts/interaction.ts';
import type { MediaTarget } from '../../src/lib/api/contracts/common.constants.ts';
import type { z } from 'zod';
import { compressBody, type ContentEncoding } from '../http/content-encoding.ts';
import type { ImportedDanmaku } from '../media/danmaku-exchange.ts';

/** The cache's key prefix of one target's answers. */
const keyOf = (target: MediaTarget) => `${target.type}:${target.id}:`;

/**
 * How many danmaku a video keeps, by its length (the pool sizes viewers of Bilibili know):
 * a longer video holds more, and past the cap the oldest make room for the newest.
 */
export function danmakuPoolCap(durationSeconds: number): number {
  if (durationSeconds <= 30) return 100;
  if (durationSeconds <= 60) return 300;
  if (durationSeconds <= 180) return 500;
  if (durationSeconds <= 600) return 1000;
  if (durationSeconds <= 900) return 1500;
  if (durationSeconds <= 2400) return 3000;
  return 8000;
}

export const segmentCountOf = (durationMs: number) =>
  Math.max(1, Math.ceil(durationMs / 1000 / DANMAKU_SEGMENT_SECONDS));

/** A little tolerance past the end: players report the last frame a hair after the duration. */
const END_TOLERANCE_S = 0.5;

type Row = Awaited<ReturnType<DanmakuRepository['insert']>>;
/** One stored danmaku as every viewer receives it (lists, sends, the live stream): no sender. */
export const toDanmaku = (r: Row): Danmaku => ({
  id: r.id,
  time: r.time,
  text: r.text,
  color: r.color,
  fontSize: r.font_size,
  mode: r.mode,
  enableRainbow: r.rainbow,
  editDateTime: r.sent_ms,
});

/** A segment's version: how many visible danmaku it holds and the newest id (sends and deletions both change it). */
const versionString = (count: number, newest: number | null) => `${count}.${newest ?? 0}`;

/** The seconds one segment covers; undefined (the whole pool) stays undefined. */
const windowOf = (segment: number | undefined): TimeWindow | undefined =>
  segment === undefined
    ? undefined
    : { from: segment * DANMAKU_SEGMENT_SECONDS, to: (segment + 1) * DANMAKU_SEGMENT_SECONDS };

/**
 * A serialized list answer with the version of the segment it was built from, and its
 * compressed forms, each made once when first asked for (a segment's JSON shrinks to about a
 * sixth; the byte budget counts the plain body only).
 */
export interface CachedList {
  version: string;
  body: Uint8Array<ArrayBuffer>;
  etag: string;
  checkedAt: number;
  encoded: Partial<Record<ContentEncoding, Promise<Uint8Array<ArrayBuffer>>>>;
}
/**
 * This process's list answers, `type:id:segment:count` -> answer, least recently used first.
 * Built by the composition root (server/services/index.ts) with the service, so each server
 * (tests run several in one process) has its own and no module keeps one.
 */
export interface ListCache {
  entries: Map<string, CachedList>;
  bytes: number;
  refreshing: Map<string, Promise<CachedList>>;
  /** Bumped by every send here, so a rebuild that read the rows before it is not kept. */
  generation: number;
}
/** Bytes of serialized answers kept per server. */
const LIST_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * How long an answer is served without asking the database whether its segment changed.
 * Sends through this process drop the video's answers at once; changes made elsewhere (another
 * server instance, rows deleted with an account or a video) show within this time.
 */
export const LIST_REVALIDATE_MS = 1000;

export function createDanmakuListCache(): ListCache {
  return { entries: new Map(), bytes: 0, refreshing: new Map(), generation: 0 };
}

/** Stores (or refreshes) an answer as the most recently used one, then trims to the byte budget. */
function remember(cache: ListCache, key: string, entry: CachedList) {
  const old = cache.entries.get(key);
  if (old) {
    cache.entries.delete(key);
    cache.bytes -= old.body.length;
  }
  cache.entries.set(key, entry);
  cache.bytes += entry.body.length;
  for (const [k, e] of cache.entries) {
    if (cache.bytes <= LIST_CACHE_BYTES || k === key) break;
    cache.entries.delete(k);
    cache.bytes -= e.body.length;
  }
}

function forgetTarget(cache: ListCache, target: MediaTarget) {
  cache.generation++;
  const prefix = keyOf(target);
  for (const key of cache.refreshing.keys()) if (key.startsWith(prefix)) cache.refreshing.delete(key);
  for (const [key, entry] of cache.entries) {
    if (key.startsWith(prefix)) {
      cache.entries.delete(key);
      cache.bytes -= entry.body.length;
    }
  }
}

/**
 * The answer's body in `encoding`. The first viewer after a change gets a quick compression (a
 * thousand danmaku compress in a millisecond or two at the lowest level, against several at the
 * usual one); the usual one is made right behind it on the thread pool and serves the viewers after.
 */
export function encodedAnswer(entry: CachedList, encoding: ContentEncoding): Promise<Uint8Array<ArrayBuffer>> {
  const known = entry.encoded[encoding];
  if (known) return known;
  const quick = compressBody(entry.body, encoding, 'quick');
  entry.encoded[encoding] = quick;
  quick
    .then(() => compressBody(entry.body, encoding, 'fast'))
    .then(
      (smaller) => {
        entry.encoded[encoding] = Promise.resolve(smaller);
      },
      () => {},
    ); // the quick one stays: it is correct, only larger
  return quick;
}

/** Counts one hit of a named limit for a subject, and refuses once the limit is passed (the rate-limit service). */
export interface RateLimiter {
  hit(name: RateLimitName, subject: string | number): Promise<void>;
}

/** Hears of each danmaku once stored (the live stream announces it to every viewer). */
export type OnDanmakuSent = (videoId: number, senderUid: number, danmaku: Danmaku) => void;

export function createDanmakuService(
  repositories: Pick<Repositories, 'danmaku' | 'moderationLog' | 'transaction'>,
  rateLimits: RateLimiter,
  cache: ListCache,
  onSent: OnDanmakuSent = () => {},
) {
  const { danmaku: store } = repositories;

  /**
   * The pool (the newest danmakuPoolCap of the target's length, decision 0034) in time order; one
   * segment of DANMAKU_SEGMENT_SECONDS, or all of it; without the senders `blockedByUid` blocked.
   */
  async function list(
    target: MediaTarget,
    durationMs: number,
    segment?: number,
    blockedByUid: number | null = null,
  ): Promise<Danmaku[]> {
    return (await store.listOf(target, windowOf(segment), blockedByUid, danmakuPoolCap(durationMs / 1000))).map(
      toDanmaku,
    );
  }

  async function versionOf(target: MediaTarget, segment: number | undefined, cap: number): Promise<string> {
    const { count, newest } = await store.countAndNewest(target, windowOf(segment), cap);
    return versionString(count, newest);
  }

  async function refresh(
    cache: ListCache,
    key: string,
    known: CachedList | undefined,
    target: MediaTarget,
    segment: number | undefined,
    durationMs: number,
  ) {
    const cap = danmakuPoolCap(durationMs / 1000);
    const segmentCount = segmentCountOf(durationMs);
    const generation = cache.generation;
    // Only a kept answer is worth a cheap check first; without one the rows are read at once and
    // the version taken from them (the same count and newest id, and exactly the rows sent).
    if (known) {
      const version = await versionOf(target, segment, cap);
      if (known.version === version && cache.entries.get(key) === known) {
        known.checkedAt = Date.now();
        return known;
      }
    }
    const rows = await store.listOf(target, windowOf(segment), null, cap);
    let newest: number | null = null;
    for (const row of rows) if (newest === null || row.id > newest) newest = row.id;
    const version = versionString(rows.length, newest);
    const answer: DanmakuListResponse = {
      success: true,
      danmaku: rows.map(toDanmaku),
      segment,
      segmentSeconds: DANMAKU_SEGMENT_SECONDS,
      segmentCount,
    };
    const entry: CachedList = {
      version,
      body: new TextEncoder().encode(JSON.stringify(answer)),
      etag: `W/"dm-${target.type === 'video' ? '' : `${target.type}-`}${target.id}-${segment ?? 'all'}-${segmentCount}-${version}"`,
      checkedAt: Date.now(),
      encoded: {},
    };
    if (cache.generation === generation) remember(cache, key, entry);
    return entry;
  }

  return {
    /** Stores one danmaku at a time inside the video (or track), then trims the pool to its cap (oldest out). */
    async emit(uid: number, durationMs: number, body: z.output<typeof danmakuEmitBody>): Promise<Danmaku> {
      const target: MediaTarget = { type: body.mediaType, id: body.videoId };
      if (body.time > durationMs / 1000 + END_TOLERANCE_S) {
        throw new DomainError('VALIDATION_FAILED', {
          issues: [{ path: 'time', message: 'is past the end of the video' }],
        });
      }
      // Counted only for danmaku that could be stored: a refused one costs the sender nothing.
      await rateLimits.hit('danmakuPerUser', uid);
      await rateLimits.hit('danmakuBurstPerUser', uid);
      const cap = danmakuPoolCap(durationMs / 1000);
      const saved = await repositories.transaction(async ({ danmaku: trx }) => {
        const row = await trx.insert({
          video_id: target.id,
          target_type: target.type,
          uid,
          time: Math.min(body.time, durationMs / 1000),
          text: body.text,
          color: body.color,
          font_size: body.fontSize,
          mode: body.mode,
          rainbow: body.enableRainbow,
        });
        await trx.deleteAllButNewest(target, cap);
        return toDanmaku(row);
      });
      forgetTarget(cache, target); // the sender sees it in the very next list
      if (target.type === 'video') {
        store.announceChanged(target.id); // and so do viewers on the other server processes
        onSent(target.id, uid, saved); // and live viewers of the video
      }
      return saved;
    },

    /**
     * Adds danmaku read from a file to a video (the caller was authorised on it): those past the
     * end are skipped, then the pool is capped as for sends (the oldest make room).
     */
    async importInto(
      videoId: number,
      durationMs: number,
      importerUid: number,
      danmaku: readonly ImportedDanmaku[],
    ): Promise<{ imported: number; skipped: number }> {
      const target: MediaTarget = { type: 'video', id: videoId };
      const fitting = danmaku.filter((d) => d.time <= durationMs / 1000 + END_TOLERANCE_S);
      const cap = danmakuPoolCap(durationMs / 1000);
      // Only the newest `cap` could stay: older ones (by the file's send time) are not written at all.
      const kept = [...fitting].sort((a, b) => a.sentAt - b.sentAt).slice(-cap);
      await repositories.transaction(async ({ danmaku: trx }) => {
        await trx.insertImported(
          kept.map((d) => ({
            video_id: videoId,
            uid: importerUid,
            time: Math.min(d.time, durationMs / 1000),
            text: d.text,
            color: d.color,
            font_size: d.fontSize,
            mode: d.mode,
          })),
        );
        await trx.deleteAllButNewest(target, cap);
      });
      forgetTarget(cache, target);
      store.announceChanged(videoId);
      return { imported: kept.length, skipped: danmaku.length - kept.length };
    },

    /** Staff take one danmaku out of view (hide: kept for the record) or away (delete); every viewer's next list leaves it out. */
    async moderate(danmakuId: number, how: 'hide' | 'delete', byUid: number): Promise<void> {
      const row = await store.byId(danmakuId);
      if (!row || !(how === 'hide' ? await store.hide(danmakuId) : await store.deleteOne(danmakuId)))
        throw new NotFound();
      const target: MediaTarget = { type: row.target_type, id: Number(row.video_id) };
      forgetTarget(cache, target);
      if (target.type === 'video') store.announceChanged(target.id);
      await recordStaffAction(repositories, {
        actorUid: byUid,
        action: how === 'hide' ? 'danmaku.hide' : 'danmaku.delete',
        targetType: 'danmaku',
        targetId: danmakuId,
        details: { mediaType: target.type, mediaId: target.id, time: row.time, text: row.text, senderUid: row.uid },
      });
    },

    /** Drops this process's cached answers of a video (another process announced a change). */
    forgetCached(videoId: number): void {
      forgetTarget(cache, { type: 'video', id: videoId });
    },

    list,

    /**
     * The list answer (GET video/danmaku) serialized, with an ETag. A busy segment holds
     * thousands of danmaku that every viewer fetches, so its JSON is built once per change and
     * reused. At most once per LIST_REVALIDATE_MS the segment's version (how many rows, the
     * newest id) is read: danmaku are only ever added or deleted, and either changes it.
     */
    async listAnswer(target: MediaTarget, durationMs: number, segment: number | undefined): Promise<CachedList> {
      const key = `${keyOf(target)}${segment ?? 'all'}:${durationMs}`;
      const known = cache.entries.get(key);
      if (known && Date.now() - known.checkedAt < LIST_REVALIDATE_MS) {
        remember(cache, key, known);
        return known;
      }
      // Concurrent requests for a stale answer share one check (and one rebuild).
      let pending = cache.refreshing.get(key);
      if (!pending) {
        const own: Promise<CachedList> = refresh(cache, key, known, target, segment, durationMs).finally(() => {
          if (cache.refreshing.get(key) === own) cache.refreshing.delete(key);
        });
        pending = own;
        cache.refreshing.set(key, pending);
      }
      return pending;
    },
  };
}
