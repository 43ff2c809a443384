/**
 * Audio processing overhead (issue 13): a stereo 44.1 kHz FLAC with an embedded cover, made
 * with ffmpeg's sine sources.
 *  (a) the real job path: an embedded PGlite database (migrated), the upload and media rows of
 *      an audio upload, then the job worker runs audioProbeJob and audioTranscodeJob
 *      (server/media/audio-pipeline.ts): probe, one decode into the progressive AAC, the 64k
 *      HLS rung, the loudness meter, the waveform peaks (read in Node) and the cover, then the
 *      128k rung by stream copy, the master playlist and the database rows. Timed from starting
 *      the worker to the transcode job done.
 *  (b) the same ffprobe/ffmpeg commands by hand, one after the other, no database or queue.
 *      The argument arrays are recorded from (a) (child_process.spawn is wrapped) and replayed
 *      verbatim, each distinct command once: the transcode step probes the file again for the
 *      cover's stream, and that repeat counts as the pipeline's overhead.
 * Overhead = best pipeline wall / best hand wall - 1. Goal: <= 10 %.
 * Usage: node bench/audio-pipeline.ts [seconds=300] [rounds=3]   (rounds alternate their order)
 */
import { createMediaStore } from '../server/media/media-store.ts';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { median } from './stats.ts';
import { runFacts } from './run-facts.ts';

const seconds = Number(process.argv[2]) || 300;
const rounds = Number(process.argv[3]) || 3;
const GOAL_OVERHEAD_PCT = 10;

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
  if (recording && /ff(mpeg|probe)$/.test(binary)) {
    const entry: Spawned = { binary, args: [...args], startMs: performance.now() };
    recording.push(entry);
    child.once('close', () => (entry.endMs = performance.now()));
  }
  return child;
};
syncBuiltinESMExports();

const { binaryPath, run } = await import('../server/media/ffmpeg.ts');
const { openDatabase, migrateToLatest } = await import('../server/db/database.ts');
const { startJobWorker } = await import('../server/jobs/queue.ts');
const { AUDIO_PROBE_JOB, AUDIO_TRANSCODE_JOB, AUDIO_FILES, audioProbeJob, audioTranscodeJob } = await import(
  '../server/media/audio-pipeline.ts'
);
const { hlsPath } = await import('../server/media/paths.ts');
const { enqueueJob } = await import('../server/jobs/queue.ts');
const { createUploadStore } = await import('../server/media/upload-store.ts');
const { insertAccount } = await import('../server/services/accounts.ts');
const { createRepositories } = await import('../server/repositories/index.ts');
const { createLogger } = await import('../server/logger.ts');

const ffmpeg = binaryPath('ffmpeg');
const ffmpegVersion = (await run(ffmpeg, ['-version'])).stdout.split('\n')[0];
const root = await mkdtemp(join(tmpdir(), 'kiraboshi-bench-audio-'));
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

async function pipelineRun(source: string, uid: number) {
  const uploadId = randomBytes(16).toString('hex');
  const mediaId = randomBytes(12).toString('hex');
  await copyFile(source, join(uploadDir, uploadId));
  await db
    .insertInto('uploads')
    .values({
      id: uploadId,
      uid,
      file_name: 'bench.flac',
      size: 0,
      max_duration_seconds: 7200,
      kind: 'audio',
      expires_at: new Date(Date.now() + 3600_000),
      finished_at: new Date(),
      media_id: mediaId,
    })
    .execute();
  await db.transaction().execute(async (trx) => {
    await trx.insertInto('media').values({ media_id: mediaId, upload_id: uploadId, uid, kind: 'audio' }).execute();
    await enqueueJob(trx, AUDIO_PROBE_JOB, { mediaId });
  });
  const logger = createLogger('error');
  const transcode = audioTranscodeJob({
    repositories,
    uploads,
    media: await createMediaStore({ directory: mediaDir, scratchDirectory: join(root, 'scratch') }),
    logger,
  });
  let finished!: () => void;
  const handled = new Promise<void>((resolve) => (finished = resolve));
  recording = [];
  const started = performance.now();
  const worker = startJobWorker({
    db,
    logger,
    handlers: {
      [AUDIO_PROBE_JOB]: audioProbeJob({ repositories, uploads, logger }),
      [AUDIO_TRANSCODE_JOB]: (payload, r) => transcode(payload, r).finally(finished),
    },
  });
  await handled;
  await worker.stop();
  const wallMs = performance.now() - started;
  const commands = recording;
  recording = null;
  const media = await db
    .selectFrom('media')
    .select(['status', 'waveform', 'loudness_lufs', 'cover_file'])
    .where('media_id', '=', mediaId)
    .executeTakeFirstOrThrow();
  const outDir = join(mediaDir, hlsPath(mediaId));
  if (media.status !== 'ready' || !existsSync(join(outDir, AUDIO_FILES.master)))
    throw new Error(`audio ended ${media.status}`);
  const processesMs = commands.reduce((sum, c) => sum + (c.endMs! - c.startMs), 0);
  return {
    outDir,
    commands,
    facts: { waveformPoints: media.waveform?.length ?? 0, loudnessLufs: media.loudness_lufs, cover: media.cover_file },
    result: {
      wallMs: round1(wallMs),
      processesMs: round1(processesMs),
      outsideProcessesMs: round1(wallMs - processesMs),
      processes: commands.length,
    },
  };
}

/**
 * Each distinct recorded command once, in order, into an emptied copy of the folder they wrote to
 * (the pipeline's scratch folder, published to the media store and gone by now).
 */
async function handRun(commands: Spawned[]) {
  const progressive = commands.flatMap((c) => c.args).find((a) => a.endsWith(`/${AUDIO_FILES.progressive}`));
  if (!progressive) throw new Error('no recorded command wrote the progressive stream');
  const outDir = dirname(progressive);
  await rm(outDir, { recursive: true, force: true });
  const seen = new Set<string>();
  const distinct = commands.filter((c) => !seen.has(c.args.join('\0')) && seen.add(c.args.join('\0')));
  const started = performance.now();
  await mkdir(join(outDir, '64k'), { recursive: true });
  await mkdir(join(outDir, '128k'), { recursive: true });
  for (const c of distinct) {
    await new Promise<void>((resolve, reject) => {
      const child: ChildProcess = realSpawn(c.binary, c.args, { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.resume(); // the PCM peaks stream, read and dropped
      let err = '';
      child.stderr!.on('data', (d: Buffer) => (err = (err + d).slice(-2000)));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${c.binary} ${code}: ${err}`))));
    });
  }
  return { wallMs: round1(performance.now() - started), processes: distinct.length };
}

async function makeSource(): Promise<string> {
  const cover = join(root, 'cover.png');
  const file = join(root, 'source.flac');
  const drawn = await run(ffmpeg, [
    '-y',
    '-v',
    'error',
    '-f',
    'lavfi',
    '-i',
    'testsrc2=size=1000x1000:duration=1',
    '-frames:v',
    '1',
    cover,
  ]);
  if (drawn.code !== 0) throw new Error(drawn.stderr);
  const made = await run(
    ffmpeg,
    [
      '-y',
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=220:sample_rate=44100:duration=${seconds}`,
      '-f',
      'lavfi',
      '-i',
      `sine=frequency=330:sample_rate=44100:duration=${seconds}`,
      '-i',
      cover,
      '-filter_complex',
      '[0:a][1:a]join=inputs=2:channel_layout=stereo[a]',
      '-map',
      '[a]',
      '-map',
      '2:v',
      '-c:v',
      'png',
      '-disposition:v',
      'attached_pic',
      '-c:a',
      'flac',
      file,
    ],
    30 * 60_000,
  );
  if (made.code !== 0) throw new Error(made.stderr);
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
  const file = await makeSource();
  const pipelineRuns = [];
  const handRuns = [];
  let recorded: { commands: Spawned[]; outDir: string } | null = null;
  let facts = null;
  for (let r = 0; r < rounds; r++) {
    for (const kind of r % 2 ? ['hand', 'pipeline'] : ['pipeline', 'hand']) {
      if (kind === 'pipeline') {
        const p = await pipelineRun(file, uid);
        if (!recorded) recorded = { commands: p.commands, outDir: p.outDir };
        else await rm(p.outDir, { recursive: true, force: true });
        facts = p.facts;
        pipelineRuns.push(p.result);
        console.log(
          `  pipeline: ${(p.result.wallMs / 1000).toFixed(2)} s (${p.result.processes} processes; outside them ${p.result.outsideProcessesMs} ms)`,
        );
      } else {
        const h = await handRun(recorded!.commands);
        handRuns.push(h);
        console.log(`  by hand:  ${(h.wallMs / 1000).toFixed(2)} s (${h.processes} processes)`);
      }
    }
  }
  const best = (xs: number[]) => Math.min(...xs);
  const pWall = best(pipelineRuns.map((p) => p.wallMs));
  const hWall = best(handRuns.map((h) => h.wallMs));
  const overheadPct = pct(pWall, hWall);
  const result = {
    name: 'audio-pipeline',
    date: new Date().toISOString(),
    ...runFacts(loadAtStart),
    ffmpeg: { path: ffmpeg, version: ffmpegVersion },
    setup: {
      sourceSeconds: seconds,
      rounds,
      source: 'stereo 44.1 kHz FLAC (two sines) with an embedded 1000x1000 PNG cover',
      pipeline:
        'embedded PGlite, the job worker runs audioProbeJob then audioTranscodeJob; timed from worker start to the transcode job done',
      hand: 'each distinct ffprobe/ffmpeg argument array recorded from the first pipeline run, spawned one after another',
      statistic: 'best (minimum) of the runs per variant; medianOverheadPct also given',
    },
    goal: { overheadPctAtMost: GOAL_OVERHEAD_PCT },
    pipeline: { wallMs: pWall, speedxRealtime: +(seconds / (pWall / 1000)).toFixed(1), runs: pipelineRuns },
    hand: { wallMs: hWall, speedxRealtime: +(seconds / (hWall / 1000)).toFixed(1), runs: handRuns },
    overheadPct,
    medianOverheadPct: pct(median(pipelineRuns.map((p) => p.wallMs)), median(handRuns.map((h) => h.wallMs))),
    goalMet: overheadPct <= GOAL_OVERHEAD_PCT,
    outputFacts: facts,
    commands: recorded!.commands.map((c) => [
      c.binary.split('/').pop(),
      ...c.args.map((a) => a.split(root).join('$TMP')),
    ]),
    totalBenchSeconds: Math.round((performance.now() - benchStarted) / 1000),
  };
  mkdirSync(join('bench', 'results'), { recursive: true });
  writeFileSync(join('bench', 'results', 'audio-pipeline.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(
    `\n${seconds} s source, ${rounds} round(s); pipeline ${(pWall / 1000).toFixed(2)} s vs by hand ${(hWall / 1000).toFixed(2)} s: overhead ${overheadPct} % (median ${result.medianOverheadPct} %); goal <= ${GOAL_OVERHEAD_PCT} %: ${result.goalMet ? 'met' : 'NOT met'}; load ${result.loadAverage.atStart.join(' ')} -> ${result.loadAverage.atEnd.join(' ')}`,
  );
} finally {
  await database.close();
  await rm(root, { recursive: true, force: true });
}
