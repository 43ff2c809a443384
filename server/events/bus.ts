/**
 * The event bus between server processes: short messages on named channels, delivered to every
 * process subscribed (this one included), at most once and only while connected. Built once by
 * the composition root (server/main.ts) and handed to the services that need it (live danmaku,
 * cache invalidation). Messages are notices, not a log: a subscriber that must not miss anything
 * reads the database for what a notice points at, or catches up from it after a reconnect.
 *
 * - PostgreSQL: LISTEN/NOTIFY, on one dedicated connection that reconnects by itself and listens
 *   again to every channel; publishing goes through the pool (NOTIFY is sent on commit).
 * - PGlite: one process, so the bus is in-process (same limits, delivered asynchronously as
 *   NOTIFY is, so code written against it behaves the same on PostgreSQL).
 * - Redis pub/sub when REDIS_URL is set (ioredis reconnects and subscribes again by itself).
 */
import pg from 'pg';
import type { Logger } from '../logger.ts';

export interface EventBus {
  publish(channel: string, payload: string): Promise<void>;
  subscribe(channel: string, listener: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** NOTIFY refuses payloads of 8000 bytes or more; every bus keeps that limit so none is surprised. */
export const MAX_PAYLOAD_BYTES = 7999;
/** A channel is a PostgreSQL identifier (63 bytes); kept to plain names so no quoting can go wrong. */
const CHANNEL = /^[a-z_][a-z0-9_:.-]{0,62}$/;

function checkMessage(channel: string, payload?: string) {
  if (!CHANNEL.test(channel))
    throw new Error(`event bus: bad channel name "${channel}" (lower-case letters, digits, _ : . -; at most 63)`);
  if (payload !== undefined && Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
    throw new Error(
      `event bus: payload of ${Buffer.byteLength(payload)} bytes on "${channel}" is over ${MAX_PAYLOAD_BYTES}: send ids, not records`,
    );
  }
}

/**
 * Listeners by channel, shared by the implementations: the transport subscribes a channel when
 * its first listener comes and leaves it when the last goes. A listener that throws is logged and
 * does not stop the others.
 */
class Listeners {
  private readonly byChannel = new Map<string, Set<(payload: string) => void>>();
  private readonly logger?: Logger;
  constructor(logger?: Logger) {
    this.logger = logger;
  }

  channels(): string[] {
    return [...this.byChannel.keys()];
  }

  /** Adds a listener; true when it is the channel's first. */
  add(channel: string, listener: (payload: string) => void): boolean {
    let set = this.byChannel.get(channel);
    const first = !set;
    if (!set) this.byChannel.set(channel, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** Removes a listener; true when the channel has none left. */
  remove(channel: string, listener: (payload: string) => void): boolean {
    const set = this.byChannel.get(channel);
    if (!set?.delete(listener)) return false;
    if (set.size) return false;
    this.byChannel.delete(channel);
    return true;
  }

  deliver(channel: string, payload: string) {
    for (const listener of this.byChannel.get(channel) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        this.logger?.error('event listener failed', { err: error, channel });
      }
    }
  }

  clear() {
    this.byChannel.clear();
  }
}

/** One process (PGlite, tests): delivery in a later tick, like a NOTIFY after its commit. */
export function createInProcessBus(logger?: Logger): EventBus {
  const listeners = new Listeners(logger);
  let closed = false;
  return {
    async publish(channel, payload) {
      checkMessage(channel, payload);
      if (closed) throw new Error('event bus: closed');
      setImmediate(() => listeners.deliver(channel, payload));
    },
    async subscribe(channel, listener) {
      checkMessage(channel);
      if (closed) throw new Error('event bus: closed');
      listeners.add(channel, listener);
      return async () => void listeners.remove(channel, listener);
    },
    async close() {
      closed = true;
      listeners.clear();
    },
  };
}

const quoteIdentifier = (name: string) => `"${name.replace(/"/g, '""')}"`;

export interface PostgresBusOptions {
  connectionString: string;
  logger?: Logger;
  /** First wait before reconnecting; doubles up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Called after the listening connection came back: notices sent meanwhile were lost. */
  onReconnect?: () => void;
  /** Names the listening connection in pg_stat_activity. */
  applicationName?: string;
}

/**
 * LISTEN/NOTIFY. The listening connection is dedicated (a pooled one would be handed to queries);
 * when it drops it is opened again with a growing wait and LISTENs to every channel again.
 * Publishing uses a connection of its own, so a NOTIFY never waits behind the listener's
 * reconnect; one, so this process's messages go out in the order published.
 */
export function createPostgresBus(options: PostgresBusOptions): EventBus & { connected(): boolean } {
  const { connectionString, logger } = options;
  const retryMs = options.retryMs ?? 250;
  const maxRetryMs = options.maxRetryMs ?? 5_000;
  const listeners = new Listeners(logger);
  const publisher = new pg.Pool({ connectionString, max: 1 });
  publisher.on('error', () => {});
  let client: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let closed = false;
  let wait = retryMs;
  let everConnected = false;
  let retryTimer: NodeJS.Timeout | undefined;

  async function open(): Promise<pg.Client> {
    const fresh = new pg.Client({ connectionString, application_name: options.applicationName ?? 'kiraboshi-events' });
    fresh.on('notification', (message) => {
      if (message.payload !== undefined) listeners.deliver(message.channel, message.payload);
    });
    fresh.on('error', (error) => {
      logger?.warn('event bus connection failed', { err: error });
      dropped(fresh);
    });
    fresh.on('end', () => dropped(fresh));
    await fresh.connect();
    try {
      for (const channel of listeners.channels()) await fresh.query(`LISTEN ${quoteIdentifier(channel)}`);
    } catch (error) {
      await fresh.end().catch(() => {});
      throw error;
    }
    return fresh;
  }

  function connect(): Promise<pg.Client> {
    if (client) return Promise.resolve(client);
    connecting ??= open().then(
      (fresh) => {
        connecting = null;
        if (closed) {
          void fresh.end().catch(() => {});
          throw new Error('event bus: closed');
        }
        client = fresh;
        wait = retryMs;
        if (everConnected) {
          logger?.info('event bus reconnected', { channels: listeners.channels().length });
          options.onReconnect?.();
        }
        everConnected = true;
        return fresh;
      },
      (error) => {
        connecting = null;
        throw error;
      },
    );
    return connecting;
  }

  /** The listening connection went away: open another after a growing wait, while anything listens. */
  function dropped(which: pg.Client) {
    if (client !== which) return;
    client = null;
    scheduleReconnect();
  }

  function scheduleReconnect() {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      connect().catch((error) => {
        if (closed) return;
        logger?.warn('event bus could not reconnect; trying again', { err: error, inMs: wait });
        wait = Math.min(wait * 2, maxRetryMs);
        scheduleReconnect();
      });
    }, wait);
    retryTimer.unref();
  }

  return {
    connected: () => client !== null,
    async publish(channel, payload) {
      checkMessage(channel, payload);
      if (closed) throw new Error('event bus: closed');
      await publisher.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async subscribe(channel, listener) {
      checkMessage(channel);
      if (closed) throw new Error('event bus: closed');
      const first = listeners.add(channel, listener);
      if (first) {
        // Listening starts with the connection when it is (re)opened; an open one listens now.
        const current =
          client ??
          (await connect().catch((error) => {
            logger?.warn('event bus not connected; will listen once it is', { err: error });
            scheduleReconnect();
            return null;
          }));
        if (current && client === current)
          await current.query(`LISTEN ${quoteIdentifier(channel)}`).catch(() => dropped(current));
      }
      return async () => {
        if (!listeners.remove(channel, listener) || !client || closed) return;
        await client.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => {});
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      await connecting?.catch(() => {});
      const last = client;
      client = null;
      await Promise.all([last?.end().catch(() => {}), publisher.end().catch(() => {})]);
    },
  };
}

/** Redis pub/sub: a subscriber connection and a publisher connection (a subscribed one can do nothing else). */
export async function createRedisBus(options: {
  url: string;
  logger?: Logger;
  onReconnect?: () => void;
}): Promise<EventBus> {
  const { Redis } = await import('ioredis');
  const { logger } = options;
  const listeners = new Listeners(logger);
  const publisher = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 3 });
  const subscriber = new Redis(options.url, { lazyConnect: true, autoResubscribe: true });
  for (const connection of [publisher, subscriber])
    connection.on('error', (error) => logger?.warn('event bus (Redis) connection failed', { err: error }));
  let readyOnce = false;
  subscriber.on('ready', () => {
    if (readyOnce) options.onReconnect?.();
    readyOnce = true;
  });
  subscriber.on('message', (channel: string, payload: string) => listeners.deliver(channel, payload));
  await Promise.all([publisher.connect(), subscriber.connect()]);
  let closed = false;
  return {
    async publish(channel, payload) {
      checkMessage(channel, payload);
      if (closed) throw new Error('event bus: closed');
      await publisher.publish(channel, payload);
    },
    async subscribe(channel, listener) {
      checkMessage(channel);
      if (closed) throw new Error('event bus: closed');
      if (listeners.add(channel, listener)) await subscriber.subscribe(channel);
      return async () => {
        if (listeners.remove(channel, listener) && !closed) await subscriber.unsubscribe(channel).catch(() => {});
      };
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await Promise.all([publisher.quit().catch(() => {}), subscriber.quit().catch(() => {})]);
    },
  };
}

/**
 * The bus for this configuration: Redis when REDIS_URL is set, else LISTEN/NOTIFY on PostgreSQL,
 * else (PGlite, one process) in-process. `onReconnect` hears when notices may have been lost.
 */
export async function createEventBus(options: {
  redisUrl?: string;
  databaseUrl?: string;
  logger?: Logger;
  onReconnect?: () => void;
}): Promise<EventBus> {
  if (options.redisUrl)
    return createRedisBus({ url: options.redisUrl, logger: options.logger, onReconnect: options.onReconnect });
  if (options.databaseUrl)
    return createPostgresBus({
      connectionString: options.databaseUrl,
      logger: options.logger,
      onReconnect: options.onReconnect,
    });
  return createInProcessBus(options.logger);
}
