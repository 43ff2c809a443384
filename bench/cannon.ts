/**
 * Load from autocannon's CLI in a child process (so the load generator does not share the
 * server's event loop), as the HTTP benches drive the real server.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { median } from './stats.ts';

export interface Cannon {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  bytesPerSecond: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

/** One autocannon run against `url` with `connections` keep-alive connections for `seconds`; `headers` as `Name=value`. */
export function cannon(
  url: string,
  options: { seconds: number; connections: number; headers?: readonly string[] },
): Promise<Cannon> {
  return new Promise((resolve, reject) => {
    const args = [
      '-c',
      String(options.connections),
      '-d',
      String(options.seconds),
      ...(options.headers ?? []).flatMap((h) => ['-H', h]),
      '-j',
      url,
    ];
    const child = spawn(join('node_modules', '.bin', 'autocannon'), args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (b) => (out += b));
    child.stderr.on('data', (b) => (err += b));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      const r = JSON.parse(out);
      resolve({
        requestsPerSecond: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        bytesPerSecond: r.throughput.average,
        total: r.requests.total,
        non2xx: r.non2xx,
        errors: r.errors,
        timeouts: r.timeouts,
      });
    });
  });
}

/**
 * Waits until `probeUrl` is answered promptly again: requests still queued from the previous run
 * (a slow side keeps working after autocannon hangs up) must not land on the next.
 */
export async function drain(probeUrl: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(probeUrl)).arrayBuffer();
    if (performance.now() - started < 100) return;
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The medians of several runs of one side, and the requests they left unanswered. */
export function summarise(runs: readonly Cannon[]) {
  return {
    requestsPerSecond: +median(runs.map((r) => r.requestsPerSecond)).toFixed(1),
    p50Ms: median(runs.map((r) => r.p50)),
    p99Ms: median(runs.map((r) => r.p99)),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
  };
}
