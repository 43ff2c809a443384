/**
 * The server's Node flags (docs/decisions/0042): every command line that starts a server process
 * carries the list in server/node-flags.ts, and Node applies them (the young generation stays
 * within its cap).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS, serverArguments, startedWithServerFlags } from '../../server/node-flags.ts';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const flags = SERVER_NODE_FLAGS.join(' ');

describe('the server flags', () => {
  it('are on every command line that starts the server', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    expect(scripts.serve).toBe(`node ${flags} server/main.ts`);
    expect(scripts.start).toMatch(new RegExp(`&& node ${flags} server/main\\.ts$`));
    const command = JSON.parse(/^CMD (.*)$/m.exec(read('deploy/Dockerfile'))![1]) as string[];
    expect(command).toEqual(['node', ...serverArguments()]);
    expect(read('scripts/e2e-server.sh')).toMatch(new RegExp(`^exec node ${flags} server/main\\.ts( |$)`, 'm'));
  });

  it('are seen on the command line or in NODE_OPTIONS', () => {
    expect(startedWithServerFlags([...SERVER_NODE_FLAGS], '')).toBe(true);
    expect(startedWithServerFlags([], `--enable-source-maps ${flags}`)).toBe(true);
    expect(startedWithServerFlags(['--max-semi-space-size=64'], '')).toBe(false);
  });

  it('cap the young generation of a process that keeps many young objects', async () => {
    // Objects that live a while: without the cap V8 grows the young generation far past 16 MB here.
    const program = `
      let kept = [];
      for (let i = 0; i < 3e6; i++) { kept.push({ i, s: 'x' + i }); if (kept.length > 200000) kept = kept.slice(100000); }
      const young = require('node:v8').getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
      console.log(young.space_size);`;
    const run = (args: string[]) => promisify(execFile)(process.execPath, [...args, '-e', program]);
    const [capped, allowed] = await Promise.all([
      run([...SERVER_NODE_FLAGS]).then(({ stdout }) => Number(stdout)),
      run(['--max-semi-space-size=64']).then(({ stdout }) => Number(stdout)),
    ]);
    // Two halves of 8 MB, and a page or two of V8's own beside them (16.5 MB seen); allowed 64 MB
    // a half, the same workload grows it to 128 MB.
    const MB = 1024 * 1024;
    expect(allowed).toBeGreaterThan(32 * MB);
    expect(capped).toBeGreaterThan(0);
    expect(capped).toBeLessThanOrEqual(20 * MB);
  });
});
