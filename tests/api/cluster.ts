/**
 * Several server processes from the real entry point (server/main.ts) on one PostgreSQL, a
 * round-robin proxy in front of them as a load balancer would be, and viewers that reconnect the
 * way a browser's EventSource does. Used by the failover test and bench/live-danmaku.ts.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { once } from 'node:events';
import { join } from 'node:path';
import { SseClient, type SseEvent } from './sse-client.ts';
import { serverArguments } from '../../server/node-flags.ts';

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** Sends a signal and waits for the process to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `node server/main.ts` with `env` on `port` (API only) and waits until it answers its health check. */
export async function startServerProcess(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, serverArguments(join(process.cwd(), 'server', 'main.ts')), {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      SERVE_SITE: '0',
      DEMO: '0',
      LOG_LEVEL: 'warn',
      DATABASE_POOL_KEPT: '2',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = once(child, 'exit');
  for (;;) {
    const healthy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    if (child.exitCode !== null) throw new Error(`the server process on ${port} exited: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    port,
    child,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        await exited;
      }
    },
  };
}

/**
 * A round-robin HTTP proxy over `ports`: each request goes to the next backend; one that refuses
 * the connection (a dead process) is skipped, as a load balancer's health check would. Streams
 * are piped both ways, so a backend that dies cuts its viewers' connections.
 */
export async function roundRobinProxy(ports: number[]): Promise<{ url: string; close(): Promise<void> }> {
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const attempt = (tries: number) => {
        const port = ports[next++ % ports.length];
        const upstream = request(
          { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
          (answer: IncomingMessage) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
            answer.on('error', () => res.destroy());
            answer.on('aborted', () => res.destroy());
            res.on('close', () => answer.destroy());
          },
        );
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (res.headersSent) return res.destroy();
          if (error.code === 'ECONNREFUSED' && tries < ports.length) return attempt(tries + 1);
          res.writeHead(502).end();
        });
        res.on('close', () => upstream.destroy());
        upstream.end(body);
      };
      attempt(1);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A viewer of a video's live stream that behaves as EventSource: when the stream ends or breaks
 * it opens it again after `retryMs`, sending the last event id it got. Records every danmaku id
 * received, and when (for latency).
 */
export class ReconnectingViewer {
  readonly received = new Map<number, number>();
  reconnects = 0;
  duplicates = 0;
  watching: number | null = null;
  private client?: SseClient;
  private lastEventId = '';
  private stopped = false;
  private waiters: Array<() => void> = [];
  private readonly url: string;
  private readonly retryMs: number;
  onDanmaku?: (id: number, event: SseEvent) => void;

  constructor(url: string, retryMs = 200) {
    this.url = url;
    this.retryMs = retryMs;
  }

  async start(): Promise<void> {
    await this.connect();
  }

  /** Resolves once `check` holds (checked after every event). */
  until(check: (viewer: ReconnectingViewer) => boolean): Promise<void> {
    if (check(this)) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => (check(this) ? resolve() : this.waiters.push(wake));
      this.waiters.push(wake);
    });
  }

  stop() {
    this.stopped = true;
    this.client?.close();
  }

  private async connect(): Promise<void> {
    while (!this.stopped) {
      const client = await SseClient.open(this.url, { lastEventId: this.lastEventId || undefined }).catch(() => null);
      if (client?.status === 200) {
        this.client = client;
        client.onEvent = (event) => {
          if (event.event === 'watching') this.watching = (JSON.parse(event.data) as { watching: number }).watching;
          else if (event.event === 'message') {
            this.lastEventId = event.id;
            const id = Number(event.id);
            if (this.received.has(id)) this.duplicates += 1;
            else this.received.set(id, event.at);
            this.onDanmaku?.(id, event);
          }
          const waiting = this.waiters;
          this.waiters = [];
          waiting.forEach((wake) => wake());
        };
        // Past events of this connection (those parsed before onEvent was set) are taken too.
        for (const event of client.events) client.onEvent(event);
        void client.ended.then(() => {
          if (this.stopped) return;
          this.reconnects += 1;
          setTimeout(() => void this.connect(), this.retryMs);
        });
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, this.retryMs));
    }
  }
}
