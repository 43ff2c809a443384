/**
 * The event bus between server processes (server/events/bus.ts) on each transport: in-process
 * (PGlite), PostgreSQL LISTEN/NOTIFY (when TEST_DATABASE_URL is set) and Redis pub/sub (a
 * redis-server started here when the binary is installed). Two bus instances stand for two
 * processes: what one publishes, the other hears.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import {
  createInProcessBus,
  createPostgresBus,
  createRedisBus,
  MAX_PAYLOAD_BYTES,
  type EventBus,
} from '../../server/events/bus.ts';

/** The next message on a channel, or the listener's unsubscribe and a queue to wait on. */
function collector() {
  const received: string[] = [];
  let wake: (() => void) | null = null;
  return {
    received,
    listener: (payload: string) => {
      received.push(payload);
      wake?.();
    },
    /** Resolves once `count` messages arrived (the test's own timeout bounds it). */
    async until(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => (wake = resolve));
    },
  };
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

interface Transport {
  name: string;
  available: boolean;
  /** Two buses as two processes would have them, and a way to cut the first one's listening connection. */
  open(onReconnect?: () => void): Promise<{ a: EventBus; b: EventBus; cut?: () => Promise<void> }>;
  teardown?: () => Promise<void>;
}

const appName = `bus-test-${randomBytes(4).toString('hex')}`;
let redis: ChildProcess | undefined;
let redisUrl = '';

const transports: Transport[] = [
  {
    name: 'in-process (PGlite)',
    available: true,
    async open() {
      const bus = createInProcessBus();
      return { a: bus, b: bus };
    },
  },
  {
    name: 'PostgreSQL LISTEN/NOTIFY',
    available: !!process.env.TEST_DATABASE_URL,
    async open(onReconnect) {
      const connectionString = process.env.TEST_DATABASE_URL!;
      const a = createPostgresBus({ connectionString, applicationName: appName, retryMs: 50, onReconnect });
      const b = createPostgresBus({ connectionString, applicationName: `${appName}-b` });
      return {
        a,
        b,
        cut: async () => {
          const admin = new pg.Client({ connectionString });
          await admin.connect();
          const { rowCount } = await admin.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
            [appName],
          );
          await admin.end();
          expect(rowCount).toBeGreaterThan(0);
        },
      };
    },
  },
  {
    name: 'Redis pub/sub',
    available: spawnSync('redis-server', ['--version']).status === 0,
    async open(onReconnect) {
      if (!redis) {
        const port = await freePort();
        redis = spawn(
          'redis-server',
          ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          { stdio: ['ignore', 'pipe', 'inherit'] },
        );
        await new Promise<void>((resolve) =>
          redis!.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && resolve()),
        );
        redisUrl = `redis://127.0.0.1:${port}`;
      }
      const a = await createRedisBus({ url: redisUrl, onReconnect });
      const b = await createRedisBus({ url: redisUrl });
      return {
        a,
        b,
        cut: async () => {
          const { Redis } = await import('ioredis');
          const admin = new Redis(redisUrl);
          await admin.client('KILL', 'TYPE', 'pubsub');
          admin.disconnect();
        },
      };
    },
  },
];

afterAll(() => {
  redis?.kill('SIGTERM');
});

describe.each(transports.filter((t) => t.available))('event bus: $name', (transport) => {
  let a: EventBus;
  let b: EventBus;
  let cut: (() => Promise<void>) | undefined;
  let reconnects = 0;
  let reconnected: (() => void) | null = null;

  beforeAll(async () => {
    ({ a, b, cut } = await transport.open(() => {
      reconnects++;
      reconnected?.();
    }));
  });
  afterAll(async () => {
    await a?.close();
    if (b !== a) await b?.close();
  });

  it('delivers what one process publishes to every subscriber, in order, this process included', async () => {
    const channel = `test_order_${randomBytes(3).toString('hex')}`;
    const onA = collector();
    const onB = collector();
    await a.subscribe(channel, onA.listener);
    await b.subscribe(channel, onB.listener);
    const sent = Array.from({ length: 20 }, (_, i) => JSON.stringify({ n: i, text: '弾幕 ✨' }));
    for (const message of sent) await b.publish(channel, message);
    await Promise.all([onA.until(20), onB.until(20)]);
    expect(onA.received).toEqual(sent);
    expect(onB.received).toEqual(sent);
  });

  it('keeps channels apart, and stops delivering once unsubscribed', async () => {
    const one = `test_one_${randomBytes(3).toString('hex')}`;
    const two = `test_two_${randomBytes(3).toString('hex')}`;
    const onOne = collector();
    const onTwo = collector();
    const leaveOne = await a.subscribe(one, onOne.listener);
    await a.subscribe(two, onTwo.listener);
    await b.publish(one, 'first');
    await onOne.until(1);
    await leaveOne();
    await b.publish(one, 'unheard');
    await b.publish(two, 'marker');
    // Messages on one connection arrive in order: once the later marker is here, 'unheard' was not delivered.
    await onTwo.until(1);
    expect(onOne.received).toEqual(['first']);
    expect(onTwo.received).toEqual(['marker']);
  });

  it('refuses payloads NOTIFY could not carry and channel names that are not plain', async () => {
    await expect(a.publish('test_big', 'x'.repeat(MAX_PAYLOAD_BYTES + 1))).rejects.toThrow(/send ids/);
    await expect(a.publish('Robert"); DROP TABLE x;--', 'x')).rejects.toThrow(/bad channel/);
    await expect(a.subscribe('', () => {})).rejects.toThrow(/bad channel/);
    // The largest allowed payload goes through.
    const channel = `test_max_${randomBytes(3).toString('hex')}`;
    const on = collector();
    await b.subscribe(channel, on.listener);
    await a.publish(channel, 'y'.repeat(MAX_PAYLOAD_BYTES));
    await on.until(1);
    expect(on.received[0]).toHaveLength(MAX_PAYLOAD_BYTES);
  });

  it.runIf(transport.name !== 'in-process (PGlite)')(
    'reconnects by itself when its connection is cut, says so, and listens again',
    async () => {
      const channel = `test_cut_${randomBytes(3).toString('hex')}`;
      const on = collector();
      await a.subscribe(channel, on.listener);
      await b.publish(channel, 'before');
      await on.until(1);
      const before = reconnects;
      const back = new Promise<void>((resolve) => (reconnected = resolve));
      await cut!();
      await back;
      expect(reconnects).toBe(before + 1);
      await b.publish(channel, 'after');
      await on.until(2);
      expect(on.received).toEqual(['before', 'after']);
    },
  );
});
