/**
 * Live danmaku (GET video/danmaku/live): what viewers send reaches everyone watching the same
 * video, on any server process, as Server-Sent Events.
 *
 * - A send is stored first (the danmaku service), then announced on the event bus channel of its
 *   video with the sender's uid (for block lists; it never leaves the server). Each process with
 *   viewers of that video listens on the channel and writes the event to its viewers, serialized
 *   once. The event id is the danmaku id: a viewer who reconnects with Last-Event-ID gets what was
 *   sent meanwhile from the database, before anything live, without repeats.
 * - Backpressure: each viewer's stream holds at most `maxBufferedBytes` that its connection has not
 *   taken; past that the viewer is dropped (the stream errors, the connection closes, its queue is
 *   freed) and the browser's EventSource comes back with its Last-Event-ID. Memory is bounded by
 *   viewers × that budget, whatever a client does.
 * - "N watching": every process counts its own open streams per video and says so on the video's
 *   channel when the count changes and every WATCHING_REFRESH_MS; the total is its own plus the
 *   others' last word, forgotten after three silent periods (a process that died). A process that
 *   opens a video's channel asks the others for their counts at once.
 * - When the bus lost its connection (notices sent meanwhile are gone), `resync` reads from the
 *   database what each open video received since the newest id this process saw.
 */
import { randomUUID } from 'node:crypto';
import type { EventBus } from '../events/bus.ts';
import type { Repositories } from '../repositories/index.ts';
import type { Danmaku } from '../../src/lib/api/contracts/interaction.ts';
import type { Logger } from '../logger.ts';
import { toDanmaku } from './danmaku.ts';

export interface LiveDanmakuOptions {
  /** Interval of the heartbeat comment (keeps proxies from closing a quiet stream). */
  heartbeatMs: number;
  /** Bytes a viewer's connection may leave untaken before the viewer is dropped. */
  maxBufferedBytes: number;
  logger?: Logger;
}

/** How often each process repeats its counts; one not heard for three periods is forgotten. */
export const WATCHING_REFRESH_MS = 10_000;
/** Viewers hear of a changed count at most this often (a thousand arriving is one message). */
const WATCHING_TELL_MS = 500;
/** A member's blocked people are read again this often while their stream is open. */
const BLOCKS_REFRESH_MS = 30_000;
/**
 * A resume replays what was missed in pages of this many, each once the connection took the one
 * before (a video keeps at most its pool cap, 8000, so a replay always ends).
 */
const REPLAY_PAGE = 200;
/** A resume repeats the danmaku created this recently, whatever their id (see replay). */
const RESUME_OVERLAP_MS = 5_000;
/** Live danmaku held for a viewer while its replay runs; past this it is dropped and resumes later. */
const HELD_LIMIT = 2000;
/** How many recent ids a video remembers, so a catch-up after a lost bus connection repeats none. */
const RECENT_IDS = 2000;
/** The browser waits this long before reconnecting (the stream's `retry:`). */
const RETRY_MS = 1000;

type BusMessage =
  | { k: 'danmaku'; from: number; danmaku: Danmaku }
  | { k: 'watching'; process: string; count: number }
  | { k: 'census'; process: string };

interface Viewer {
  uid: number | null;
  blocked: ReadonlySet<number>;
  blockedReadAt: number;
  controller: ReadableStreamDefaultController<Uint8Array>;
  /** Closes the viewer's connection at once (its queue is then discarded). */
  disconnect: () => void;
  open: boolean;
  /** While a resume's replay runs: live events that arrived meanwhile, sent after it. */
  held: Array<{ id: number; bytes: Uint8Array }> | null;
  /** Wakes a replay waiting for the connection to take what is queued. */
  drained?: () => void;
}

interface Room {
  videoId: number;
  viewers: Set<Viewer>;
  /** Resolves to leaving the video's channel once subscribed. */
  subscription: Promise<() => Promise<void>>;
  elsewhere: Map<string, { count: number; heardAt: number }>;
  newestId: number;
  recent: Set<number>;
  told: number;
  tellTimer?: NodeJS.Timeout;
  countTimer?: NodeJS.Timeout;
}

/** A live stream's headers: never stored, never buffered by a proxy (nginx reads X-Accel-Buffering). */
export const LIVE_STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

const encoder = new TextEncoder();
const channelOf = (videoId: number) => `live_danmaku.${videoId}`;
const HEARTBEAT = encoder.encode(':\n\n');
const danmakuEvent = (danmaku: Danmaku) => encoder.encode(`id: ${danmaku.id}\ndata: ${JSON.stringify(danmaku)}\n\n`);
const watchingEvent = (watching: number) =>
  encoder.encode(`event: watching\ndata: ${JSON.stringify({ watching })}\n\n`);

export function createLiveDanmaku(
  repositories: Pick<Repositories, 'danmaku' | 'blockLists'>,
  bus: EventBus,
  options: LiveDanmakuOptions,
) {
  const { logger, maxBufferedBytes } = options;
  const processId = randomUUID();
  const rooms = new Map<number, Room>();
  let closed = false;

  const publish = (videoId: number, message: BusMessage) =>
    bus
      .publish(channelOf(videoId), JSON.stringify(message))
      .catch((error) => logger?.warn('live danmaku: publishing failed', { err: error, videoId, kind: message.k }));

  /**
   * Writes to one viewer, or drops the viewer whose connection left too much untaken. A resume's
   * replay writes a page at a time (`replay`: within its own pacing); nothing else is written meanwhile.
   */
  function write(room: Room, viewer: Viewer, bytes: Uint8Array, replay = false) {
    if (!viewer.open || (viewer.held && !replay)) return;
    if (!replay && (viewer.controller.desiredSize ?? 0) < bytes.length) return drop(room, viewer);
    viewer.controller.enqueue(bytes);
  }

  /** Cut, not closed: a close would keep the queue until sent. The browser resumes. */
  function drop(room: Room, viewer: Viewer) {
    leave(room, viewer);
    viewer.disconnect();
  }

  /**
   * What a viewer missed since `afterId`, from the database, a page at a time as its connection
   * takes them; then what arrived live meanwhile (without repeats), and the count.
   */
  async function replay(room: Room, viewer: Viewer, afterId: number) {
    const replayed = new Set<number>();
    // The first page also repeats the last few seconds' danmaku: one that committed after a
    // higher id reached the viewer is not lost (the player keeps each id once).
    for (
      let after = afterId, since: Date | undefined = new Date(Date.now() - RESUME_OVERLAP_MS);
      viewer.open;
      since = undefined
    ) {
      const page = await repositories.danmaku.newerThan(
        room.videoId,
        after,
        viewer.blocked.size ? viewer.uid : null,
        REPLAY_PAGE,
        since,
      );
      for (const row of page) {
        replayed.add(row.id);
        write(room, viewer, danmakuEvent(toDanmaku(row)), true);
      }
      // The connection takes this page before the next is read (or live writes resume).
      if ((viewer.controller.desiredSize ?? 0) <= 0) await new Promise<void>((resolve) => (viewer.drained = resolve));
      if (page.length < REPLAY_PAGE) break;
      after = page[page.length - 1].id;
    }
    for (const live of viewer.held ?? []) if (!replayed.has(live.id)) write(room, viewer, live.bytes, true);
    viewer.held = null;
    write(room, viewer, watchingEvent(total(room)), true);
  }

  function total(room: Room): number {
    const now = Date.now();
    let count = room.viewers.size;
    for (const [process, other] of room.elsewhere) {
      if (now - other.heardAt > 3 * WATCHING_REFRESH_MS) room.elsewhere.delete(process);
      else count += other.count;
    }
    return count;
  }

  /** Viewers hear the new total soon (one message for many changes). */
  function tellSoon(room: Room) {
    room.tellTimer ??= setTimeout(() => {
      room.tellTimer = undefined;
      const now = total(room);
      if (now === room.told) return;
      room.told = now;
      const bytes = watchingEvent(now);
      for (const viewer of room.viewers) write(room, viewer, bytes);
    }, WATCHING_TELL_MS);
  }

  /** The other processes hear this one's count soon (one message for many changes). */
  function countSoon(room: Room) {
    room.countTimer ??= setTimeout(() => {
      room.countTimer = undefined;
      void publish(room.videoId, { k: 'watching', process: processId, count: room.viewers.size });
    }, WATCHING_TELL_MS);
    tellSoon(room);
  }

  function remember(room: Room, id: number) {
    room.newestId = Math.max(room.newestId, id);
    room.recent.add(id);
    if (room.recent.size > RECENT_IDS) room.recent.delete(room.recent.values().next().value!);
  }

  function deliver(room: Room, from: number, danmaku: Danmaku) {
    if (room.recent.has(danmaku.id)) return;
    remember(room, danmaku.id);
    const bytes = danmakuEvent(danmaku);
    for (const viewer of room.viewers) {
      if (viewer.blocked.has(from)) continue;
      if (!viewer.held) write(room, viewer, bytes);
      else if (viewer.held.push({ id: danmaku.id, bytes }) > HELD_LIMIT) drop(room, viewer);
    }
  }

  function hear(room: Room, payload: string) {
    let message: BusMessage;
    try {
      message = JSON.parse(payload) as BusMessage;
    } catch {
      return logger?.warn('live danmaku: unreadable message', { videoId: room.videoId });
    }
    if (message.k === 'danmaku') return deliver(room, message.from, message.danmaku);
    if (message.process === processId) return;
    if (message.k === 'census') {
      if (room.viewers.size) countSoon(room);
      return;
    }
    if (message.count > 0) room.elsewhere.set(message.process, { count: message.count, heardAt: Date.now() });
    else room.elsewhere.delete(message.process);
    tellSoon(room);
  }

  function roomOf(videoId: number): Room {
    let room = rooms.get(videoId);
    if (room) return room;
    const created: Room = {
      videoId,
      viewers: new Set(),
      elsewhere: new Map(),
      newestId: 0,
      recent: new Set(),
      told: -1,
      subscription: bus.subscribe(channelOf(videoId), (payload) => hear(created, payload)),
    };
    room = created;
    rooms.set(videoId, room);
    // What "newest" means for a catch-up after a lost bus connection.
    repositories.danmaku
      .countAndNewest({ type: 'video', id: videoId }, undefined)
      .then(({ newest }) => {
        created.newestId = Math.max(created.newestId, newest ?? 0);
      })
      .catch((error) => logger?.warn('live danmaku: reading the newest id failed', { err: error, videoId }));
    void created.subscription.then(
      () => publish(videoId, { k: 'census', process: processId }),
      () => {},
    );
    return room;
  }

  function leave(room: Room, viewer: Viewer) {
    if (!viewer.open) return;
    viewer.open = false;
    room.viewers.delete(viewer);
    if (room.viewers.size) return countSoon(room);
    // The last viewer here: leave the channel, and say this process has none.
    rooms.delete(room.videoId);
    clearTimeout(room.tellTimer);
    clearTimeout(room.countTimer);
    void publish(room.videoId, { k: 'watching', process: processId, count: 0 });
    room.subscription
      .then(
        (unsubscribe) => unsubscribe(),
        () => {},
      )
      .catch(() => {});
  }

  async function blockedBy(uid: number | null): Promise<Set<number>> {
    return uid === null ? new Set() : new Set(await repositories.blockLists.blockedUidsOf(uid));
  }

  // Heartbeats (and the backpressure check they imply) for every open stream.
  const heartbeat = setInterval(() => {
    for (const room of rooms.values()) for (const viewer of room.viewers) write(room, viewer, HEARTBEAT);
  }, options.heartbeatMs);
  heartbeat.unref();
  // Counts repeated, forgotten ones dropped; members' blocked people read again.
  const refresh = setInterval(() => {
    const now = Date.now();
    for (const room of rooms.values()) {
      void publish(room.videoId, { k: 'watching', process: processId, count: room.viewers.size });
      tellSoon(room);
      for (const viewer of room.viewers) {
        if (viewer.uid === null || now - viewer.blockedReadAt < BLOCKS_REFRESH_MS) continue;
        viewer.blockedReadAt = now;
        blockedBy(viewer.uid).then(
          (blocked) => {
            viewer.blocked = blocked;
          },
          () => {},
        );
      }
    }
  }, WATCHING_REFRESH_MS);
  refresh.unref();

  return {
    /** Tells every process (this one too) of a danmaku just stored; a failure is logged, the send stands. */
    announce(videoId: number, from: number, danmaku: Danmaku): Promise<void> {
      return publish(videoId, { k: 'danmaku', from, danmaku });
    },

    /**
     * Opens one viewer's stream of a video (visible to them: the handler checked). With
     * `lastEventId`, what was sent after it comes first, from the database. `disconnect` cuts
     * the viewer's connection (a slow one); by default the stream errors, which ends it too.
     */
    async open(
      videoId: number,
      viewerUid: number | null,
      lastEventId: number | null,
      disconnect?: () => void,
    ): Promise<Response> {
      if (closed) throw new Error('live danmaku: closed');
      const blocked = await blockedBy(viewerUid);
      const room = roomOf(videoId);
      let viewer!: Viewer;
      const body = new ReadableStream<Uint8Array>(
        {
          start(controller) {
            viewer = {
              uid: viewerUid,
              blocked,
              blockedReadAt: Date.now(),
              controller,
              open: true,
              held: lastEventId === null ? null : [],
              disconnect: disconnect ?? (() => controller.error(new Error('live danmaku: the viewer fell behind'))),
            };
          },
          pull: () => {
            viewer.drained?.();
            viewer.drained = undefined;
          },
          cancel: () => {
            leave(room, viewer);
            viewer.drained?.();
          },
        },
        new ByteLengthQueuingStrategy({ highWaterMark: maxBufferedBytes }),
      );
      room.viewers.add(viewer);
      write(room, viewer, encoder.encode(`retry: ${RETRY_MS}\n\n`), true);
      countSoon(room);
      // Listening before reading the database: nothing sent in between is lost.
      await room.subscription.catch((error) => {
        // The next viewer tries the channel again.
        if (rooms.get(videoId) === room) rooms.delete(videoId);
        leave(room, viewer);
        throw error;
      });
      if (lastEventId === null) write(room, viewer, watchingEvent(total(room)));
      else {
        replay(room, viewer, lastEventId).catch((error) => {
          logger?.warn('live danmaku: replay failed', { err: error, videoId });
          drop(room, viewer);
        });
      }
      return new Response(body, { headers: LIVE_STREAM_HEADERS });
    },

    /** After the bus lost its connection: what each open video received meanwhile, from the database. */
    async resync(): Promise<void> {
      for (const room of [...rooms.values()]) {
        for (let page: Awaited<ReturnType<typeof repositories.danmaku.newerThan>> = []; ; ) {
          page = await repositories.danmaku.newerThan(room.videoId, room.newestId, null, REPLAY_PAGE).catch((error) => {
            logger?.warn('live danmaku: catching up failed', { err: error, videoId: room.videoId });
            return [];
          });
          for (const row of page) deliver(room, row.uid, toDanmaku(row));
          if (page.length < REPLAY_PAGE) break;
        }
        void publish(room.videoId, { k: 'census', process: processId });
      }
    },

    /** Ends every stream (the server is stopping; browsers reconnect to another process). */
    close() {
      closed = true;
      clearInterval(heartbeat);
      clearInterval(refresh);
      for (const room of [...rooms.values()]) {
        for (const viewer of [...room.viewers]) {
          if (viewer.open) viewer.controller.close();
          leave(room, viewer);
        }
      }
    },
  };
}
export type LiveDanmaku = ReturnType<typeof createLiveDanmaku>;
