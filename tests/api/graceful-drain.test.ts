/**
 * SIGTERM on a real `node server/main.ts` with kept-alive connections: while it drains, no answer
 * invites the client to reuse its connection (`Connection: close`), idle kept connections are
 * closed at once, and a request that still comes on a kept connection is refused cleanly (503
 * with Connection: close and Retry-After, or the connection closed before any byte of its
 * answer), never answered as if the connection would live on, and never cut halfway.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { rm } from 'node:fs/promises';
import { BACKENDS, freshPostgresDatabase } from './harness.ts';
import { killLeftoverServers, scratchDir, startServerProcess } from './fault-harness.ts';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A raw HTTP/1.1 connection: what we write, every byte that comes back, and when it closed. */
function rawConnection(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  const socket: Socket = connect(Number(port), hostname);
  let received = Buffer.alloc(0);
  let closedAt = 0;
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((resolve) => resolve());
  socket.on('data', (chunk: Buffer) => {
    received = Buffer.concat([received, chunk]);
    wake();
  });
  socket.on('error', () => {});
  socket.on('close', () => {
    closedAt = performance.now();
    wake();
  });
  const answers = (): RawAnswer[] => {
    const parsed: RawAnswer[] = [];
    let rest = received.toString('latin1');
    while (rest.includes('\r\n\r\n')) {
      const [head] = rest.split('\r\n\r\n', 1);
      const [statusLine, ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      const length = Number(headers['content-length'] ?? 0);
      const bodyStart = head.length + 4;
      if (rest.length < bodyStart + length) break;
      parsed.push({
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.from(rest.slice(bodyStart, bodyStart + length), 'latin1').toString('utf8'),
      });
      rest = rest.slice(bodyStart + length);
    }
    return parsed;
  };
  const until = async (check: () => boolean, ms = 5000) => {
    const deadline = performance.now() + ms;
    while (!check()) {
      if (performance.now() > deadline)
        throw new Error(`timed out; received: ${received.toString('latin1').slice(0, 500)}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 50);
      });
    }
  };
  return {
    socket,
    answers,
    until,
    write: (text: string) => socket.write(text),
    get closedAt() {
      return closedAt;
    },
    get bytes() {
      return received.length;
    },
  };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: kira.test\r\nAccept-Language: en\r\n\r\n`;

describe.each(BACKENDS)('draining on SIGTERM (%s)', (backend) => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    killLeftoverServers();
    for (const cleanup of cleanups) await cleanup();
  });

  it('closes kept connections instead of inviting their reuse, and refuses cleanly what still comes on them', async () => {
    const dataDir = await scratchDir('drain');
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const postgres = backend === 'postgres' ? await freshPostgresDatabase() : null;
    if (postgres) cleanups.push(postgres.drop);
    const server = await startServerProcess({ DATA_DIR: dataDir, ...(postgres ? { DATABASE_URL: postgres.url } : {}) });

    // Before the signal, answers keep their connection alive.
    const idle = rawConnection(server.baseUrl);
    idle.write(get('/api/user/check'));
    await idle.until(() => idle.answers().length === 1);
    expect(idle.answers()[0]).toMatchObject({ status: 200, headers: { connection: 'keep-alive' } });
    const bytesBefore = idle.bytes;

    // A request whose body is still coming when the signal arrives: in flight while draining.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not a password at all' });
    const slow = rawConnection(server.baseUrl);
    slow.write(
      `POST /api/user/login HTTP/1.1\r\nHost: kira.test\r\nContent-Type: application/json\r\nAccept-Language: en\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await server.logLine((line) => line.msg === 'listening');
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signalled = performance.now();
    process.kill(server.pid, 'SIGTERM');
    await server.logLine((line) => line.msg === 'shutting down');
    // The idle kept connection is closed at once, with nothing more sent on it.
    await idle.until(() => idle.closedAt > 0, 2000);
    expect(idle.closedAt - signalled).toBeLessThan(1500);
    expect(idle.bytes).toBe(bytesBefore);

    // The rest of the body, and at once a second request on the same connection (pipelined):
    // the first is answered with Connection: close; the second is not run.
    slow.write(body.slice(10) + get('/api/user/check'));
    await slow.until(() => slow.closedAt > 0);
    const [first, second, ...more] = slow.answers();
    expect(first).toMatchObject({ status: 401, headers: { connection: 'close' } });
    expect(JSON.parse(first.body).code).toBe('INVALID_CREDENTIALS');
    if (second) {
      expect(second).toMatchObject({ status: 503, headers: { connection: 'close', 'retry-after': '1' } });
      expect(JSON.parse(second.body)).toMatchObject({
        success: false,
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is briefly unavailable. Please try again in a moment.',
      });
    }
    expect(more).toEqual([]);

    expect(await server.exited).toEqual({ code: 0, signal: null });
    const stopped = await server.logLine((line) => line.msg === 'stopped');
    expect(stopped.requestsCutAtGrace).toBe(0);
    console.log(
      `[drain] idle connection closed ${Math.round(idle.closedAt - signalled)} ms after SIGTERM; pipelined request ${second ? 'refused 503' : 'closed before any byte'}; stopped in ${stopped.ms} ms`,
    );
  }, 60_000);
});
