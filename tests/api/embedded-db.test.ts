import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, migrateToLatest } from '../../server/db/database.ts';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'kiraboshi-db-'));
  dirs.push(dir);
  return dir;
};

describe('embedded database in DATA_DIR', () => {
  it('keeps data across restarts', async () => {
    const dir = await tempDir();
    const first = await openDatabase({ dataDir: dir });
    await migrateToLatest(first.db);
    await first.db.insertInto('users').values({ username: 'persist' }).execute();
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    expect(await migrateToLatest(second.db)).toEqual([]);
    expect(await second.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'persist' }]);
    await second.close();
  });

  it('refuses a second process with a clear message instead of corrupting the data', async () => {
    const dir = await tempDir();
    // A live process (this test runner's parent) owns the lock.
    await writeFile(join(dir, 'pgdata.lock'), String(process.ppid));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(/in use by process \d+.*DATABASE_URL/);
  });

  it('takes over a lock left by a process that is gone', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'pgdata.lock'), '999999999');
    const handle = await openDatabase({ dataDir: dir });
    await handle.close();
  });

  it('serialises concurrent transactions on its single connection', async () => {
    const handle = await openDatabase({});
    await migrateToLatest(handle.db);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        handle.db.transaction().execute(async (trx) => {
          // Within one transaction no other transaction's insert may appear between two reads.
          const before = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          await trx
            .insertInto('users')
            .values({ username: `u${i}` })
            .execute();
          await new Promise((r) => setTimeout(r, 1));
          const after = await trx
            .selectFrom('users')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          expect(Number(after.n)).toBe(Number(before.n) + 1);
        }),
      ),
    );
    const total = await handle.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(total.n)).toBe(20);
    await handle.close();
  });
});
