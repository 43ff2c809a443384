import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

function cli(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['scripts/cli.ts', ...args], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

describe('command line', () => {
  it('creates the first administrator and invitation codes in the embedded database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-cli-'));
    dirs.push(dir);
    const created = cli(dir, 'user:create', '--email', 'Admin@Example.com', '--username', 'Admin', '--password', 'a long enough secret', '--role', 'administrator');
    expect(created.status).toBe(0);
    expect(created.out).toMatch(/Created user Admin \(uid \d+\) with the role administrator\./);
    const invites = cli(dir, 'invite:create', '--count', '2');
    expect(invites.status).toBe(0);
    expect(invites.out.trim().split('\n')).toHaveLength(2);
    expect(invites.out).toMatch(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/m);
    expect(cli(dir, 'user:create', '--email', 'admin@example.com', '--username', 'Other', '--password', 'a long enough secret').err)
      .toContain('This e-mail address is already registered.');
    expect(cli(dir, 'user:create', '--email', 'w@example.com', '--username', 'Weak', '--password', 'password').status).toBe(1);
    expect(cli(dir, 'user:create').status).toBe(2);

    const db = await openDatabase({ dataDir: dir });
    const users = await db.db.selectFrom('users').select(['username', 'roles', 'password_hash']).execute();
    expect(users).toEqual([{ username: 'Admin', roles: ['administrator'], password_hash: expect.stringMatching(/^\$argon2id\$/) }]);
    expect(await db.db.selectFrom('invitation_codes').select('code').execute()).toHaveLength(2);
    await db.close();
  });

  it('refuses, without touching the data, while another process holds the embedded database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-cli-'));
    dirs.push(dir);
    await writeFile(join(dir, 'pgdata.lock'), String(process.pid));
    const refused = cli(dir, 'invite:create');
    expect(refused.status).toBe(1);
    expect(refused.err).toContain('stop the server, run this command, then start the server again');
    expect(refused.out).toBe('');
  });
});
