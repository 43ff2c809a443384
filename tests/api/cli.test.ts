import { afterAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/database.ts';
import { startServer } from '../../server/main.ts';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

/** The CLI as a separate process, not blocking this one (which may be running the server it talks to). */
function cliAsync(dataDir: string, ...args: string[]): Promise<{ status: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

function cli(dataDir: string, ...args: string[]) {
  const result = spawnSync(process.execPath, ['scripts/cli.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { status: result.status, out: result.stdout, err: result.stderr };
}

describe('command line', () => {
  it('creates the first administrator and invitation codes in the embedded database', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-cli-'));
    dirs.push(dir);
    const created = cli(
      dir,
      'user:create',
      '--email',
      'Admin@Example.com',
      '--username',
      'Admin',
      '--password',
      'a long enough secret',
      '--role',
      'administrator',
    );
    expect(created.status).toBe(0);
    expect(created.out).toMatch(/Created user Admin \(uid \d+\) with the role administrator\./);
    const invites = cli(dir, 'invite:create', '--count', '2');
    expect(invites.status).toBe(0);
    expect(invites.out.trim().split('\n')).toHaveLength(2);
    expect(invites.out).toMatch(/^KIRA-[A-Z0-9]{4}-[A-Z0-9]{4}$/m);
    expect(
      cli(
        dir,
        'user:create',
        '--email',
        'admin@example.com',
        '--username',
        'Other',
        '--password',
        'a long enough secret',
      ).err,
    ).toContain('This e-mail address is already registered.');
    expect(
      cli(dir, 'user:create', '--email', 'w@example.com', '--username', 'Weak', '--password', 'password').status,
    ).toBe(1);
    expect(cli(dir, 'user:create').status).toBe(2);

    const db = await openDatabase({ dataDir: dir });
    const users = await db.db.selectFrom('users').select(['username', 'roles', 'password_hash']).execute();
    expect(users).toEqual([
      { username: 'Admin', roles: ['administrator'], password_hash: expect.stringMatching(/^\$argon2id\$/) },
    ]);
    expect(await db.db.selectFrom('invitation_codes').select('code').execute()).toHaveLength(2);
    await db.close();
  }, 120_000); // five command runs one after another, each opening the embedded database (~6 s each on a busy machine)

  it('works while the server runs on the embedded database, through its admin socket', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-cli-'));
    dirs.push(dir);
    const running = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dir,
      DATABASE_URL: '',
      SERVE_SITE: '0',
      LOG_LEVEL: 'error',
      DEMO: '0',
      WORKER: '0',
    });
    try {
      // Only the server's own user may open the socket.
      expect((await stat(join(dir, 'admin.sock'))).mode & 0o777).toBe(0o600);
      const created = await cliAsync(
        dir,
        'user:create',
        '--email',
        'first@example.com',
        '--username',
        'FirstAdmin',
        '--password',
        'a long enough secret',
        '--role',
        'administrator',
      );
      expect(created.err).toBe('');
      expect(created.out).toMatch(/^Created user FirstAdmin \(uid \d+\) with the role administrator\.$/m);
      const invites = await cliAsync(dir, 'invite:create', '--count', '3');
      expect(invites.status).toBe(0);
      expect(invites.out.trim().split('\n')).toHaveLength(3);
      // The server's own database has them at once, and the administrator can log in.
      const rows = await running.database.db
        .selectFrom('users')
        .select(['username', 'roles', 'is_updated_after_review'])
        .execute();
      expect(rows).toEqual([{ username: 'FirstAdmin', roles: ['administrator'], is_updated_after_review: false }]);
      expect(await running.database.db.selectFrom('invitation_codes').select('code').execute()).toHaveLength(3);
      const login = await fetch(`http://127.0.0.1:${running.port}/api/user/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'first@example.com', password: 'a long enough secret' }),
      });
      expect(login.status).toBe(200);
      // The service's refusals come back as they do without a server.
      const taken = await cliAsync(
        dir,
        'user:create',
        '--email',
        'FIRST@example.com',
        '--username',
        'Again',
        '--password',
        'a long enough secret',
      );
      expect(taken.status).toBe(1);
      expect(taken.err).toContain('This e-mail address is already registered.');
      const weak = await cliAsync(
        dir,
        'user:create',
        '--email',
        'w@example.com',
        '--username',
        'Weak',
        '--password',
        'password',
      );
      expect(weak.status).toBe(1);
    } finally {
      await running.close();
    }
    // Stopped, the socket is gone and the CLI opens the database itself again.
    await expect(stat(join(dir, 'admin.sock'))).rejects.toThrow();
    expect(cli(dir, 'invite:create').status).toBe(0);
  }, 240_000);

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
