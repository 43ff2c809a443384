/**
 * With uploads and media in an S3-compatible bucket (s3rver), the worker makes its files in a
 * scratch folder of its own under DATA_DIR/uploads/from-s3 (a copy of the source, the rung
 * being made). A worker killed midway (SIGKILL) leaves them; the next start on the machine
 * removes them, and the ffmpeg left running there, while folders of live processes and of other
 * machines stay. A job that ends leaves nothing behind.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeVideo, statusOf, upload, useVideoFixtures } from './media-helpers.ts';
import { startS3Server, type TestS3 } from './s3-server.ts';
import { killHard, killLeftoverServers, scratchDir, seedDatabase, startServerProcess } from './fault-harness.ts';

useVideoFixtures();

/** Every file under a folder, as paths relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (entry.isFile()) found.push(join(entry.parentPath, entry.name).slice(root.length + 1));
  }
  return found.sort();
}

describe('scratch files of a killed worker over S3', () => {
  let s3: TestS3 | undefined;
  let dataDir = '';
  afterAll(async () => {
    killLeftoverServers();
    await s3?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('are swept at the next start, sparing live processes and other machines; a finished job leaves none', async () => {
    s3 = await startS3Server();
    dataDir = await scratchDir('scratch-sweep');
    const { cookies } = await seedDatabase({ dataDir }, 1);
    const env = { ...s3.env, MEDIA_STORE: 's3', DATA_DIR: dataDir };
    const root = join(dataDir, 'uploads', 'from-s3');
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_');

    const first = await startServerProcess(env);
    const firstScratch = join(root, `w-${host}-${first.pid}`);
    const mediaId = await upload(first.asTestServer(), cookies[0], await makeVideo(40, 'long.mp4', '640x480'));
    // Killed while a rung is being made: the source copy and the half-made rung are there.
    let left: string[] = [];
    for (
      const started = Date.now();
      Date.now() - started < 60_000;
      await new Promise((resolve) => setTimeout(resolve, 50))
    ) {
      left = await filesUnder(firstScratch);
      if (left.some((file) => file.includes('.partial-') && file.endsWith('.m4s'))) break;
    }
    await killHard(first);
    left = await filesUnder(firstScratch);
    expect(left.some((file) => /^[0-9a-f]{32}\.[0-9a-f]{8}$/.test(file))).toBe(true); // the source's copy
    expect(left.some((file) => file.includes('.partial-'))).toBe(true);
    const ffmpegPid = Number(
      await readFile(join(firstScratch, left.find((file) => file.endsWith('.writer-pid'))!), 'utf8').catch(() => '0'),
    );

    // Folders that are not a dead process's of this machine: this (live) test process's, another machine's.
    const live = join(root, `w-${host}-${process.pid}`);
    const elsewhere = join(root, 'w-another-machine-4242');
    for (const folder of [live, elsewhere]) {
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'working'), 'x');
    }

    const second = await startServerProcess(env);
    // Swept before the new process listens.
    expect(existsSync(firstScratch)).toBe(false);
    expect(await filesUnder(live)).toEqual(['working']);
    expect(await filesUnder(elsewhere)).toEqual(['working']);
    if (ffmpegPid > 0)
      expect(
        existsSync(`/proc/${ffmpegPid}`) &&
          (await readFile(`/proc/${ffmpegPid}/cmdline`, 'utf8').catch(() => '')).includes(firstScratch),
      ).toBe(false);

    // The job is taken again and finished; it leaves nothing in the new worker's folder.
    expect((await statusOf(second.asTestServer(), cookies[0], mediaId)).status).toBe('ready');
    expect(await filesUnder(join(root, `w-${host}-${second.pid}`))).toEqual([]);
    console.log(
      `[scratch] killed worker left ${left.length} files (${left.filter((f) => f.includes('.partial-')).length} of a half-made rung); swept at the next start`,
    );
    await killHard(second);
  }, 180_000);
});
