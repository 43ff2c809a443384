/**
 * Transcoding speed of the media pipeline, on a 720p30 and a 1080p30 source made with ffmpeg's
 * test sources (H.264/AAC mp4). For each source:
 *  (a) the real job path: an embedded PGlite database (server/db/database.ts, migrated), the
 *      probe step, then the job worker (server/jobs/queue.ts) claims and runs `transcodeJob`
 *      (server/media/pipeline.ts): rungs lowest first, master after each, poster, storyboard.
 *      Measured: wall time from starting the worker to the job marked done, time until
 *      master.m3u8 exists (first playable rung), and speed as a multiple of real time;
 *  (b) the same ffmpeg commands by hand, one after the other, with no database or job queue.
 *      The argument arrays are not rebuilt here: every ffmpeg the pipeline spawns during (a) is
 *      recorded (child_process.spawn is wrapped) and replayed verbatim, so (b) cannot drift from
 *      server/media/hls.ts. (hls.ts exports no function that returns the arguments.)
 * Overhead = best pipeline wall / best hand wall - 1. Goal: <= 10 %.
 * Also reported: the pipeline's time outside its own ffmpeg processes (database, job queue,
 * playlist writes, spawning), which other load on the machine disturbs far less.
 * Usage: node bench/transcode.ts [seconds=60] [rounds=2]
 *   (a round is one pipeline and one hand run per source; rounds alternate their order: ABBA)
 * About 8 minutes on 2 cores at the defaults; the machine should be otherwise idle.
 */
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { median } from './stats.ts';
import { runFacts } from './run-facts.ts';

const seconds = Number(process.argv[2]) || 60;
const rounds = Number(process.argv[3]) || 2;
const GOAL_OVERHEAD_PCT = 10;
const SOURCES = [
  { name: '720p30', size: '1280x720' },
  { name: '1080p30', size: '1920x1080' },
];

// Record every ffmpeg the pipeline starts (server/media/ffmpeg.ts imports spawn from node:child_process).
interface Spawned {
  binary: string;
  args: string[];
  startMs: number;
  endMs?: number;
}
const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as typeof import('node:child_process');
const realSpawn = childProcess.spawn;
let recording: Spawned[] | null = null;
(childProcess as { spawn: unknown }).spawn = function spawn(binary: string, args: string[], options: SpawnOptions) {
  const child = realSpawn(binary, args, options);
  if (recording && /ffmpeg$/.test(binary)) {
    const entry: Spawned = { binary, args: [...args], startMs: performance.now() };
    recording.push(entry);
    child.once('close', () => (entry.endMs = performance.now()));
  }
  return child;
};
syncBuiltinESMExports();

const { binaryPath, run, probeVideo } = await import('../server/media/ffmpeg.ts');
const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
const { startJobWorker } = await import('../server/jobs/queue.ts');
const { PROBE_JOB, TRANSCODE_JOB, probeJob, transcodeJob, hlsPath } = await import('../server/media/pipeline.ts');
const { ladderFor } = await import('../server/media/hls.ts');
const { createUploadStore } = await import('../server/media/upload-store.ts');
const { createMediaStore } = await import('../server/media/media-store.ts');
const { insertAccount } = await import('../server/services/accounts.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { createLogger } = await import('../server/logger.ts');

const ffmpeg = binaryPath('ffmpeg');
const ffmpegVersion = (await run(ffmpeg, ['-version'])).stdout.split('\n')[0];
const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-transcode-'));
const uploadDir = join(root, 'uploads');
const mediaDir = join(root, 'media');
await mkdir(uploadDir, { recursive: true });
const uploads = await createUploadStore({ directory: uploadDir });

const database = await openDatabase({});
const { db } = database;
// The bench is its own composition root: one repository set for its jobs and its account.
const repositories = createRepositories(db);
const round1 = (ms: number) => Math.round(ms);
const pct = (a: number, b: number) => +((a / b - 1) * 100).toFixed(1);

/** The pipeline's way: the upload and media rows, the probe step, then the worker runs the transcode job. */
async function pipelineRun(source: string, uid: number) {
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await copyFile(source, join(uploadDir, uploadId)); // where a finished tus upload lies
  await db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'bench.mp4',
      size: 0,
      max_duration_seconds: 1800,
      expires_at: new Date(Date.now() + 3600_000),
      finished_at: new Date(),
      media_id: mediaId,
    })
    .execute();
  await db.insertInto('media').values({ media_id: mediaId, upload_id: uploadId, uid }).execute();
  const logger = createLogger('error');
  await probeJob({ repositories, uploads, logger })({ mediaId }); // untimed; it queues the transcode job
  const media = await db.selectFrom('media').selectAll().where('media_id', '=', mediaId).executeTakeFirstOrThrow();
  if (media.status !== 'probed') throw new Error(`probe said ${media.status} ${media.reason}`);
  const outDir = join(mediaDir, hlsPath(mediaId));
  const master = join(outDir, 'master.m3u8');

  const transcode = transcodeJob({
    repositories,
    uploads,
    media: await createMediaStore({ directory: mediaDir, scratchDirectory: mediaDir }),
    logger,
  });
  let finished!: () => void;
  const handled = new Promise<void>((resolve) => (finished = resolve));
  recording = [];
  let firstPlayableMs: number | null = null;
  const started = performance.now();
  const watch = setInterval(() => {
    if (firstPlayableMs === null && existsSync(master)) firstPlayableMs = performance.now() - started;
  }, 10);
  const worker = startJobWorker({
    db,
    logger,
    handlers: {
      [PROBE_JOB]: probeJob({ repositories, uploads, logger }),
      [TRANSCODE_JOB]: (payload, run) => transcode(payload, run).finally(finished),
    },
  });
  await handled;
  await worker.stop(); // returns once the job is marked done
  const wallMs = performance.now() - started;
  clearInterval(watch);
  const commands = recording;
  recording = null;

  const job = await db
    .selectFrom('jobs')
    .select(['status', 'last_error'])
    .where('kind', '=', TRANSCODE_JOB)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const after = await db
    .selectFrom('media')
    .select(['status', 'renditions'])
    .where('media_id', '=', mediaId)
    .executeTakeFirstOrThrow();
  if (job.status !== 'done' || after.status !== 'ready')
    throw new Error(`transcode job ${job.status} (${job.last_error}), media ${after.status}`);
  const ffmpegMs = commands.reduce((sum, c) => sum + (c.endMs! - c.startMs), 0);
  // The upload copy stays: the hand runs read the recorded input (all removed with the temp dir).
  return {
    outDir,
    commands,
    renditions: after.renditions,
    result: {
      wallMs: round1(wallMs),
      firstPlayableMs: firstPlayableMs === null ? null : round1(firstPlayableMs),
      ffmpegProcessesMs: round1(ffmpegMs),
      outsideFfmpegMs: round1(wallMs - ffmpegMs),
      steps: commands.map((c) => ({
        output: c.args.at(-1)!.slice(outDir.length + 1),
        ms: round1(c.endMs! - c.startMs),
      })),
    },
  };
}

/** The same ffmpeg commands by hand, in the same order, into a fresh copy of the same folder. */
async function handRun(commands: Spawned[], outDir: string, rungCount: number) {
  await rm(outDir, { recursive: true, force: true });
  const steps: Array<{ output: string; ms: number }> = [];
  let firstPlayableMs = 0;
  const started = performance.now();
  for (const [i, c] of commands.entries()) {
    const t = performance.now();
    const output = c.args.at(-1)!;
    await mkdir(dirname(output), { recursive: true });
    const code = await new Promise<number | null>((resolve, reject) => {
      const child: ChildProcess = realSpawn(c.binary, c.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.resume();
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err = (err + d).slice(-2000)));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve(code) : reject(new Error(`ffmpeg ${code}: ${err}`))));
    });
    void code;
    steps.push({ output: output.slice(outDir.length + 1), ms: round1(performance.now() - t) });
    if (i === 0 && rungCount > 0) firstPlayableMs = performance.now() - started;
  }
  return { wallMs: round1(performance.now() - started), firstPlayableMs: round1(firstPlayableMs), steps };
}

async function makeSource(name: string, size: string): Promise<string> {
  const file = join(root, `source-${name}.mp4`);
  const result = await run(
    ffmpeg,
    [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `testsrc2=size=${size}:rate=30:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=440:sample_rate=48000:duration=${seconds}`,
      '-c:v',
      'libx264',
      '-preset',
      'veryfast',
      '-pix_fmt',
      'yuv420p',
      '-c:a',
      'aac',
      '-b:a',
      '128k',
      '-shortest',
      '-movflags',
      '+faststart',
      file,
    ],
    30 * 60_000,
  );
  if (result.code !== 0) throw new Error(`making ${name} failed: ${result.stderr}`);
  return file;
}

const benchStarted = performance.now();
const loadAtStart = loadavg().map((l) => +l.toFixed(2));
try {
  await migrateToLatest(db);
  const uid = await insertAccount(repositories, {
    email: 'bench@example.com',
    password: 'bench password 1',
    username: 'Bench',
    roles: ['user'],
  });
  const results = [];
  for (const src of SOURCES) {
    const t = performance.now();
    const file = await makeSource(src.name, src.size);
    const probe = await probeVideo(file);
    if (!probe.ok) throw new Error(`source ${src.name}: ${probe.reason}`);
    const durationS = probe.result.durationMs / 1000;
    const rungs = ladderFor(probe.result.height).map((r) => r.height);
    console.log(
      `${src.name}: ${durationS.toFixed(1)} s source made in ${((performance.now() - t) / 1000).toFixed(1)} s; rungs ${rungs.join(', ')}`,
    );

    const pipelineRuns = [];
    const handRuns = [];
    let commands: Spawned[] | null = null;
    let outDir = '';
    for (let r = 0; r < rounds; r++) {
      // The first round must start with the pipeline (it records the commands); later rounds alternate.
      for (const kind of r % 2 ? ['hand', 'pipeline'] : ['pipeline', 'hand']) {
        if (kind === 'pipeline') {
          const p = await pipelineRun(file, uid);
          // The hand runs replay the first recording, into that run's folder (emptied first).
          if (!commands) [commands, outDir] = [p.commands, p.outDir];
          await rm(p.outDir, { recursive: true, force: true });
          if (p.commands.length !== rungs.length + 2)
            throw new Error(`expected ${rungs.length + 2} ffmpeg runs, saw ${p.commands.length}`);
          pipelineRuns.push(p.result);
          console.log(
            `  pipeline: ${(p.result.wallMs / 1000).toFixed(1)} s, first playable ${((p.result.firstPlayableMs ?? NaN) / 1000).toFixed(1)} s, ${(durationS / (p.result.wallMs / 1000)).toFixed(2)}x real time; outside ffmpeg ${p.result.outsideFfmpegMs} ms`,
          );
        } else {
          const h = await handRun(commands!, outDir, rungs.length);
          handRuns.push(h);
          console.log(
            `  by hand:  ${(h.wallMs / 1000).toFixed(1)} s, first rung ${(h.firstPlayableMs / 1000).toFixed(1)} s, ${(durationS / (h.wallMs / 1000)).toFixed(2)}x real time`,
          );
        }
      }
    }
    await rm(outDir, { recursive: true, force: true });
    await rm(file, { force: true });

    // Best of the runs: other load on the machine only ever adds time, so the minimum is the
    // steadiest estimate of each (medians are kept too).
    const best = (xs: number[]) => Math.min(...xs);
    const pWall = best(pipelineRuns.map((p) => p.wallMs));
    const hWall = best(handRuns.map((h) => h.wallMs));
    const pFirst = best(pipelineRuns.map((p) => p.firstPlayableMs ?? NaN));
    const hFirst = best(handRuns.map((h) => h.firstPlayableMs));
    const overheadPct = pct(pWall, hWall);
    results.push({
      source: {
        name: src.name,
        size: src.size,
        fps: 30,
        durationS,
        videoCodec: probe.result.videoCodec,
        audioCodec: probe.result.audioCodec,
      },
      rungs,
      pipeline: {
        wallMs: pWall,
        firstPlayableMs: pFirst,
        speedxRealtime: +(durationS / (pWall / 1000)).toFixed(2),
        firstPlayableXRealtime: +(durationS / (pFirst / 1000)).toFixed(2),
        runs: pipelineRuns,
      },
      hand: {
        wallMs: hWall,
        firstRungMs: hFirst,
        speedxRealtime: +(durationS / (hWall / 1000)).toFixed(2),
        runs: handRuns,
      },
      overheadPct,
      medianOverheadPct: pct(median(pipelineRuns.map((p) => p.wallMs)), median(handRuns.map((h) => h.wallMs))),
      firstPlayableOverheadPct: pct(pFirst, hFirst),
      outsideFfmpegPct: +(
        (100 * median(pipelineRuns.map((p) => p.outsideFfmpegMs))) /
        median(pipelineRuns.map((p) => p.ffmpegProcessesMs))
      ).toFixed(2),
      goalMet: overheadPct <= GOAL_OVERHEAD_PCT,
      ffmpegArgs: commands!.map((c) => c.args.map((a) => a.split(root).join('$TMP'))),
    });
  }

  const result = {
    name: 'transcode',
    date: new Date().toISOString(),
    ...runFacts(loadAtStart),
    ffmpeg: { path: ffmpeg, version: ffmpegVersion },
    setup: {
      sourceSeconds: seconds,
      rounds,
      pipeline:
        'embedded PGlite (openDatabase + migrateToLatest), probeJob untimed, then startJobWorker runs transcodeJob; timed from worker start to job done',
      hand: 'the ffmpeg argument arrays recorded from the pipeline run, spawned one after another',
      statistic: 'best (minimum) of the runs per variant; medianOverheadPct also given',
      firstPlayable: 'pipeline: master.m3u8 appears (polled every 10 ms); hand: first rung ffmpeg exits',
    },
    goal: { overheadPctAtMost: GOAL_OVERHEAD_PCT },
    goalMet: results.every((r) => r.goalMet),
    results,
    totalBenchSeconds: Math.round((performance.now() - benchStarted) / 1000),
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  writeFileSync(join('bench', 'results', 'transcode.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\n${seconds} s sources, ${rounds} round(s); ${ffmpegVersion}`);
  console.table(
    results.map((r) => ({
      source: r.source.name,
      rungs: r.rungs.join('/'),
      'pipeline s': +(r.pipeline.wallMs / 1000).toFixed(1),
      'first playable s': +(r.pipeline.firstPlayableMs / 1000).toFixed(1),
      'x real time': r.pipeline.speedxRealtime,
      'hand s': +(r.hand.wallMs / 1000).toFixed(1),
      'overhead %': r.overheadPct,
      'outside ffmpeg %': r.outsideFfmpegPct,
    })),
  );
  console.log(
    `overhead goal <= ${GOAL_OVERHEAD_PCT} %: ${result.goalMet ? 'met' : 'NOT met'}; written bench/results/transcode.json`,
  );
} finally {
  await database.close();
  await rm(root, { recursive: true, force: true });
}
