/**
 * Live danmaku across processes, and when one dies: two server processes from the real entry
 * point on one (throwaway) PostgreSQL database, viewers connected through a round-robin proxy,
 * danmaku sent through it too. What is sent on either process reaches the viewers of both (the
 * LISTEN/NOTIFY bus); the watching count adds both processes up; then one process is killed with
 * SIGKILL while danmaku keep coming: its viewers reconnect (to the other) with their last event
 * id, and every viewer ends up with every danmaku. Needs TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { freshPostgresDatabase, openDatabase, type TestServer } from './harness.ts';
import { insertVideo, member } from './media-helpers.ts';
import { ReconnectingViewer, roundRobinProxy, startServerProcess, type ServerProcess } from './cluster.ts';

const VIEWERS = 8;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

describe.runIf(!!process.env.TEST_DATABASE_URL)('live danmaku on two processes, one killed', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>>;
  let handle: Awaited<ReturnType<typeof openDatabase>>;
  let processes: ServerProcess[] = [];
  let proxy: Awaited<ReturnType<typeof roundRobinProxy>>;
  let videoId = 0;
  let senders: string[] = [];
  const viewers: ReconnectingViewer[] = [];

  beforeAll(async () => {
    database = await freshPostgresDatabase();
    // The first process migrates the database; the second starts on it.
    processes.push(await startServerProcess(await freePort(), { DATABASE_URL: database.url, WORKER: '0' }));
    processes.push(await startServerProcess(await freePort(), { DATABASE_URL: database.url, WORKER: '0' }));
    proxy = await roundRobinProxy(processes.map((p) => p.port));
    handle = await openDatabase({ databaseUrl: database.url });
    const direct = { db: handle.db } as TestServer;
    const uploader = await member(direct, 'FailoverUploader');
    videoId = await insertVideo(direct, uploader, 600_000);
    senders = await Promise.all(Array.from({ length: 60 }, (_, i) => member(direct, `FailoverSender${i}`)));
  }, 120_000);
  afterAll(async () => {
    viewers.forEach((v) => v.stop());
    await proxy?.close();
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    await handle?.close();
    await database?.drop();
  });

  /**
   * A danmaku sent through the proxy, as a user would: sent again if the process answering died
   * (by another member: the first may have been stored, and one per 3 s is the limit).
   */
  const sent: number[] = [];
  let nextSender = 0;
  async function send(index: number) {
    for (;;) {
      const res = await fetch(`${proxy.url}/api/video/danmaku/emit`, {
        method: 'POST',
        headers: { Cookie: senders[nextSender++], 'Content-Type': 'application/json' },
        body: JSON.stringify({ videoId, time: 1 + index, text: `failover ${index}`, color: 'ffffff' }),
      }).catch(() => null);
      if (res?.ok) {
        sent.push((await res.json()).danmaku.id);
        return;
      }
      if (res && res.status !== 502) throw new Error(`send ${index}: ${res.status} ${await res.text()}`);
      expect(nextSender, 'too many failed sends').toBeLessThan(senders.length);
    }
  }
  const hasAll = (v: ReconnectingViewer) => sent.every((id) => v.received.has(id));

  it('fans out across processes and counts the viewers of both', async () => {
    for (let i = 0; i < VIEWERS; i++) {
      const viewer = new ReconnectingViewer(`${proxy.url}/api/video/danmaku/live?videoId=${videoId}`);
      await viewer.start();
      viewers.push(viewer);
    }
    // Round robin: half on each process, and each hears the total of both.
    await Promise.all(viewers.map((v) => v.until(() => v.watching === VIEWERS)));
    for (let i = 0; i < 10; i++) await send(i);
    await Promise.all(viewers.map((v) => v.until(hasAll)));
  });

  it('loses nothing when a process is killed: its viewers reconnect to the other with their last id', async () => {
    const [doomed] = processes;
    const sending = (async () => {
      for (let i = 10; i < 40; i++) await send(i);
    })();
    // Killed while danmaku are flowing.
    await Promise.all(viewers.map((v) => v.until(() => v.received.size >= 15)));
    await doomed.stop('SIGKILL');
    processes = processes.slice(1);
    await sending;
    await Promise.all(viewers.map((v) => v.until(hasAll)));
    expect(sent).toHaveLength(40);
    expect(viewers.filter((v) => v.reconnects > 0).length).toBeGreaterThanOrEqual(VIEWERS / 2 - 1);
    // Every viewer has every danmaku whose send was answered (one stored by the dying process
    // whose answer was lost may come too). A resume repeats the last seconds (ids may commit out
    // of order across processes); the player keeps each id once, as this viewer counts them.
    for (const viewer of viewers) expect(sent.filter((id) => !viewer.received.has(id))).toEqual([]);
  });
});
