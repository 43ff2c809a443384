/**
 * Upload throughput of a 1 GiB file through our tus endpoint (the real server, as tests start
 * it: PGlite in memory, a logged-in member, POST creation then PATCH in 50 MiB chunks), as a
 * ratio to a plain HTTP PUT of the same bytes to a bare Node http server that streams the body
 * to a file. Both run on loopback, in the same run, writing to the same temp dir. The client
 * runs in a child process (as a browser would be), so client and server each have an event loop.
 * Variants alternate, RUNS times each; the medians are compared. Goal: tus / PUT >= 0.8.
 * Usage: node bench/tus-upload.ts [runs=5] [sizeMiB=1024]
 */
import { createServer, request, type Server } from 'node:http';
import { createReadStream, createWriteStream, mkdirSync, writeFileSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm, open } from 'node:fs/promises';
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { median } from './stats.ts';
import { runFacts } from './run-facts.ts';

const MiB = 1024 * 1024;
const CHUNK = 52_428_800; // 50 MiB, the chunk size of the site's uploader
const GOAL = 0.8;

interface Job {
  kind: 'put' | 'tus';
  baseUrl: string;
  file: string;
  size: number;
  cookie?: string;
}
interface Result {
  ms: number;
  status: number;
  requests: number;
  mediaId?: string | null;
}

// ---- client (child process): one upload per message, timed from first byte sent to last answer ----

/** One HTTP request whose body is a byte range of the file, streamed; answers status and headers. */
function send(url: URL, method: string, headers: Record<string, string>, file?: string, start = 0, end = 0) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request(url, { method, headers, agent: keepAlive }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (!file || end <= start) return req.end();
    pipeline(createReadStream(file, { start, end: end - 1, highWaterMark: 1 * MiB }), req).catch(reject);
  });
}
let keepAlive: import('node:http').Agent;

async function clientUpload(job: Job): Promise<Result> {
  const started = performance.now();
  if (job.kind === 'put') {
    const res = await send(
      new URL('/upload', job.baseUrl),
      'PUT',
      { 'Content-Type': 'application/octet-stream', 'Content-Length': String(job.size) },
      job.file,
      0,
      job.size,
    );
    return { ms: performance.now() - started, status: res.status, requests: 1 };
  }
  const TUS = { 'Tus-Resumable': '1.0.0', Cookie: job.cookie! };
  const meta = (fields: Record<string, string>) =>
    Object.entries(fields)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
      .join(',');
  const created = await send(new URL('/api/video/tus', job.baseUrl), 'POST', {
    ...TUS,
    'Upload-Length': String(job.size),
    'Upload-Metadata': meta({
      name: 'bench.mp4',
      maxDurationSeconds: '1800',
      expiry: new Date(Date.now() + 3600_000).toISOString(),
    }),
  });
  if (created.status !== 201) throw new Error(`tus creation answered ${created.status}`);
  const location = new URL(String(created.headers.location), job.baseUrl);
  let requests = 1;
  let last = created;
  for (let offset = 0; offset < job.size; offset += CHUNK) {
    const end = Math.min(job.size, offset + CHUNK);
    last = await send(
      location,
      'PATCH',
      {
        ...TUS,
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'Content-Length': String(end - offset),
      },
      job.file,
      offset,
      end,
    );
    requests++;
    if (last.status !== 204) throw new Error(`PATCH at ${offset} answered ${last.status}`);
    if (Number(last.headers['upload-offset']) !== end)
      throw new Error(`PATCH at ${offset}: server is at ${last.headers['upload-offset']}`);
  }
  return {
    ms: performance.now() - started,
    status: last.status,
    requests,
    mediaId: last.headers['stream-media-id'] as string | undefined,
  };
}

if (process.argv[2] === '--client') {
  const { Agent } = await import('node:http');
  keepAlive = new Agent({ keepAlive: true, maxSockets: 1 });
  process.on('message', (job: Job) => {
    clientUpload(job).then(
      (r) => process.send!({ ok: true, ...r }),
      (e: Error) => process.send!({ ok: false, error: e.stack ?? String(e) }),
    );
  });
} else {
  await main();
}

// ---- orchestrator ----

async function main() {
  const runs = Number(process.argv[2]) || 5;
  const loadAtStart = loadavg().map((l) => +l.toFixed(2));
  const size = (Number(process.argv[3]) || 1024) * MiB;
  const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-upload-'));
  const putDir = join(root, 'put');
  const uploadDir = join(root, 'tus');
  mkdirSync(putDir);
  const source = join(root, 'source.bin');
  const cleanup: Array<() => Promise<unknown> | unknown> = [() => rm(root, { recursive: true, force: true })];
  try {
    // The source: a 1 MiB random block repeated (incompressible enough; nothing here compresses anyway).
    const block = randomBytes(MiB);
    const fh = await open(source, 'w');
    for (let written = 0; written < size; written += MiB) await fh.write(block, 0, Math.min(MiB, size - written));
    await fh.sync(); // not still being written back while the first run measures
    await fh.close();

    // The bare baseline: stream the request body to a file, answer 204.
    let putCount = 0;
    const bare: Server = createServer((req, res) => {
      if (req.method !== 'PUT') return void res.writeHead(405).end();
      pipeline(req, createWriteStream(join(putDir, `put-${putCount++}.bin`))).then(
        () => res.writeHead(204).end(),
        () => res.writeHead(500).end(),
      );
    });
    bare.keepAliveTimeout = 65_000;
    bare.listen(0, '127.0.0.1');
    await once(bare, 'listening');
    cleanup.unshift(() => new Promise((r) => bare.close(r)));
    const bareUrl = `http://127.0.0.1:${(bare.address() as { port: number }).port}`;

    // The real server, as the API tests start it; no job worker, so the finished upload's probe
    // job just stays queued and costs nothing during the measurement.
    const { startTestServer } = await import('../tests/api/harness.ts');
    const { insertAccount } = await import('../server/services/accounts.ts');
    const { createSession } = await import('../server/auth/sessions.ts');
    const { createRepositories } = await import('../server/repositories/index.ts');
    const app = await startTestServer('pglite', {
      env: {
        WORKER: '0',
        UPLOAD_DIR: uploadDir,
        MEDIA_DIR: join(root, 'media'),
        OUTBOX_DIR: join(root, 'outbox'),
        UPLOAD_MAX_BYTES: String(8 * 1024 * MiB),
      },
    });
    cleanup.unshift(() => app.close());
    const repositories = createRepositories(app.db);
    const uid = await insertAccount(repositories, {
      email: 'bench@example.com',
      password: 'bench password 1',
      username: 'Bench',
      roles: ['user'],
    });
    const cookie = `uid=${uid}; token=${await createSession(repositories, uid)}`;

    const client = fork(import.meta.filename, ['--client'], { stdio: 'inherit' });
    cleanup.unshift(() => client.kill());
    const upload = async (job: Job): Promise<Result> => {
      client.send(job);
      const [answer] = (await once(client, 'message')) as [{ ok: boolean; error?: string } & Result];
      if (!answer.ok) throw new Error(`${job.kind} upload failed: ${answer.error}`);
      return answer;
    };

    // One small warm-up of each (JIT, connections, first database queries), not counted.
    const warm = join(root, 'warm.bin');
    writeFileSync(warm, block);
    await upload({ kind: 'put', baseUrl: bareUrl, file: warm, size: MiB });
    await upload({ kind: 'tus', baseUrl: app.baseUrl, file: warm, size: MiB, cookie });
    emptyDir(putDir);
    emptyDir(uploadDir);

    const mbps = (ms: number) => size / 1e6 / (ms / 1000);
    const samples: { put: number[]; tus: number[] } = { put: [], tus: [] };
    for (let i = 0; i < runs; i++) {
      for (const kind of (i % 2 ? ['tus', 'put'] : ['put', 'tus']) as Array<'put' | 'tus'>) {
        const r =
          kind === 'put'
            ? await upload({ kind, baseUrl: bareUrl, file: source, size })
            : await upload({ kind, baseUrl: app.baseUrl, file: source, size, cookie });
        if (kind === 'tus' && !r.mediaId) throw new Error('the last PATCH carried no Stream-Media-Id');
        samples[kind].push(mbps(r.ms));
        console.log(
          `run ${i + 1} ${kind.padEnd(3)}: ${(r.ms / 1000).toFixed(2)} s, ${mbps(r.ms).toFixed(0)} MB/s (${r.requests} request${r.requests > 1 ? 's' : ''})`,
        );
        // Each run starts with an empty target dir (and 1 GiB less in the page cache to write back).
        emptyDir(kind === 'put' ? putDir : uploadDir);
      }
    }

    const putMedian = median(samples.put);
    const tusMedian = median(samples.tus);
    const ratio = tusMedian / putMedian;
    const result = {
      name: 'tus-upload',
      date: new Date().toISOString(),
      ...runFacts(loadAtStart),
      setup: {
        bytes: size,
        chunkBytes: CHUNK,
        runsPerVariant: runs,
        loopback: true,
        tempDir: root,
        tus: 'real server via tests/api/harness.ts startTestServer(pglite), WORKER=0, member session cookie, POST + PATCH chunks',
        put: 'bare node:http server, single PUT, body piped to fs.createWriteStream',
        client: 'node:http in a child process, body streamed from the source file, keep-alive',
      },
      unit: 'MB/s (10^6 bytes per second)',
      samples: { put: samples.put.map((v) => +v.toFixed(1)), tus: samples.tus.map((v) => +v.toFixed(1)) },
      median: { put: +putMedian.toFixed(1), tus: +tusMedian.toFixed(1) },
      ratio: +ratio.toFixed(3),
      goal: { ratioAtLeast: GOAL },
      goalMet: ratio >= GOAL,
    };
    mkdirSync(join('bench', 'results'), { recursive: true });
    writeFileSync(join('bench', 'results', 'tus-upload.json'), `${JSON.stringify(result, null, 2)}\n`);
    console.log(
      `\n${size / MiB} MiB over loopback, median of ${runs}: PUT ${putMedian.toFixed(0)} MB/s, tus ${tusMedian.toFixed(0)} MB/s`,
    );
    console.log(`ratio tus/PUT = ${ratio.toFixed(2)} (goal >= ${GOAL}): ${result.goalMet ? 'met' : 'NOT met'}`);
    console.log('written bench/results/tus-upload.json');
  } finally {
    for (const step of cleanup) await step();
  }
}

function emptyDir(dir: string) {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { recursive: true, force: true });
}
