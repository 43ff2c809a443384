/**
 * Pages and media files take no body: a POST (or a GET carrying one) is refused at once,
 * before the body is read, and the connection closed after the answer; and a client that
 * half-closes its connection after sending its request (shutdown of its sending side) still
 * gets its whole answer, pages rendered on demand included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { BACKENDS, startTestServer, type TestServer } from './harness.ts';
import { member } from './media-helpers.ts';

const built = existsSync('dist/server/entry.mjs');
const DECLARED = 200 * 1024 * 1024;

/** Sends `head`, then streams up to `bodyBytes` of body as fast as the server takes it; resolves with what came back. */
function rawExchange(port: number, head: string, options: { bodyBytes?: number; halfClose?: boolean } = {}) {
  return new Promise<{ text: string; written: number; ms: number; closed: boolean }>((resolve) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let written = 0;
    let answered = false;
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      answered = true;
    });
    socket.on('error', () => {});
    const done = (closed: boolean) => resolve({ text, written, ms: performance.now() - started, closed });
    socket.on('close', () => done(true));
    setTimeout(() => {
      socket.destroy();
      done(false);
    }, 15_000).unref();
    socket.write(head);
    if (options.halfClose) socket.end();
    const chunk = Buffer.alloc(1024 * 1024, 120);
    const pump = () => {
      while (!answered && !socket.destroyed && written < (options.bodyBytes ?? 0)) {
        written += chunk.length;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

const statusLine = (text: string) => text.split('\r\n')[0];
const header = (text: string, name: string) =>
  new RegExp(`\r\n${name}: ([^\r\n]*)`, 'i').exec(text.split('\r\n\r\n')[0])?.[1];

describe.each(BACKENDS)('bodies pages and media do not take, and half-closed clients (%s)', (backend) => {
  let server: TestServer;
  let port = 0;
  beforeAll(async () => {
    server = await startTestServer(backend, { site: built });
    port = Number(new URL(server.baseUrl).port);
  });
  afterAll(() => server?.close());

  const paths = [...(built ? ['/en/', '/en/user/1', '/'] : []), '/media/hls/0123456789abcdef01234567/master.m3u8'];

  it('refuses a 200 MB POST to pages and /media/ at once with 405, without reading the body', async () => {
    for (const path of paths) {
      const answer = await rawExchange(
        port,
        `POST ${path} HTTP/1.1\r\nHost: kira.test\r\nContent-Type: application/octet-stream\r\nContent-Length: ${DECLARED}\r\n\r\n`,
        { bodyBytes: DECLARED },
      );
      expect([path, statusLine(answer.text), header(answer.text, 'allow'), header(answer.text, 'connection')]).toEqual([
        path,
        'HTTP/1.1 405 Method Not Allowed',
        'GET, HEAD',
        'close',
      ]);
      // Answered (and the connection closed) long before the body could have been sent.
      expect(answer.closed).toBe(true);
      expect(answer.written).toBeLessThan(DECLARED / 4);
      expect(answer.ms).toBeLessThan(5000);
    }
  });

  it('refuses a GET that carries a body with 413, and a chunked one too', async () => {
    for (const path of paths) {
      const sized = await rawExchange(
        port,
        `GET ${path} HTTP/1.1\r\nHost: kira.test\r\nContent-Length: ${DECLARED}\r\n\r\n`,
        { bodyBytes: DECLARED },
      );
      expect([path, statusLine(sized.text), header(sized.text, 'connection'), sized.closed]).toEqual([
        path,
        'HTTP/1.1 413 Payload Too Large',
        'close',
        true,
      ]);
      expect(sized.written).toBeLessThan(DECLARED / 4);
      const chunked = await rawExchange(
        port,
        `GET ${path} HTTP/1.1\r\nHost: kira.test\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n`,
      );
      expect([path, statusLine(chunked.text)]).toEqual([path, 'HTTP/1.1 413 Payload Too Large']);
    }
  });

  it.skipIf(!built)(
    'answers a client that half-closes after its request, pages rendered on demand included',
    async () => {
      const uploader = await member(server, 'HalfClosed');
      const uid = Number(/uid=(\d+)/.exec(uploader)![1]);
      for (const path of ['/en/', `/en/user/${uid}`, '/api/user/check']) {
        const answer = await rawExchange(port, `GET ${path} HTTP/1.1\r\nHost: kira.test\r\n\r\n`, { halfClose: true });
        expect([path, statusLine(answer.text), answer.closed]).toEqual([path, 'HTTP/1.1 200 OK', true]);
        // The whole answer: as long as it said.
        const length = Number(header(answer.text, 'content-length') ?? Number.NaN);
        const body = answer.text.slice(answer.text.indexOf('\r\n\r\n') + 4);
        if (Number.isFinite(length)) expect(Buffer.byteLength(body, 'latin1')).toBe(length);
        else expect(body.endsWith('0\r\n\r\n')).toBe(true);
      }
    },
  );

  it('still serves pages and media by GET and HEAD as before', async () => {
    for (const path of paths) {
      const answer = await fetch(server.baseUrl + path, { method: 'HEAD', redirect: 'manual' });
      expect([path, answer.status === 405 || answer.status === 413]).toEqual([path, false]);
    }
  });
});
