/**
 * DIAGNOSTIC: the plans and times of the hot like path's statements (the batched like, the batched
 * session lookup) as the server's connections run them: prepared, and after five runs on their
 * generic plan (docs/decisions/0035), with EXPLAIN (ANALYZE, BUFFERS) at batch sizes 1, 10 and 100
 * while the item's likes grow. Each EXPLAINed batch is rolled back. Usage:
 * TEST_DATABASE_URL=… node bench/likes-plan.ts [likesBefore=0,1000,10000] [only=like|session]
 */
import pg from 'pg';
import type { CompiledQuery } from 'kysely';
import { insertMembersWithSessions, insertPlainVideo, insertUploader } from './fixtures.ts';

const SIZES = (process.argv[2] ?? '0,1000,10000').split(',').map(Number);
const ONLY = process.argv[3];
const BATCHES = [1, 10, 100];
const MEMBERS = Math.max(...SIZES) + 3 * Math.max(...BATCHES) + 200;
const { startTestServer } = await import('../tests/api/harness.ts');
let seen: CompiledQuery | undefined;
const server = await startTestServer('postgres', {
  onQuery: (query) => {
    if (query.sql.includes('/* prepared */')) seen = query;
  },
});
try {
  const { db, repositories } = server;
  const dbName = (
    await db.selectNoFrom((eb) => eb.fn<string>('current_database', []).as('n')).executeTakeFirstOrThrow()
  ).n;
  const pgc = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL!.replace(/\/[^/]*$/, `/${dbName}`) });
  pgc.on('error', () => {});
  await pgc.connect();
  const cookies = await insertMembersWithSessions(db, MEMBERS);
  const uids = cookies.map((c) => Number(/uid=(\d+)/.exec(c)![1]));
  const uploader = await insertUploader(db);
  const videoId = await insertPlainVideo(db, uploader, 'hot');
  const target = { type: 'video' as const, id: videoId };
  // The statements' text, as the server sends them.
  await repositories.likes.like(uids[0], target, uploader);
  const likeSql = seen!.sql;
  const likeParams = [...seen!.parameters];
  await server.api('video?videoId=1', { headers: { cookie: cookies[1] } });
  const sessionQuery = (await import('../server/repositories/sessions.repository.ts')).createSessionsRepository(db);
  seen = undefined;
  await sessionQuery.userOfLiveSession(uids[1], 'x');
  const sessionSql = seen!.sql;
  console.log('like statement:', likeSql.replace(/\s+/g, ' '));
  console.log('like parameters:', JSON.stringify(likeParams));
  console.log('session statement:', sessionSql.replace(/\s+/g, ' '));
  // Named at the protocol level, as the server's connections send them (server/db/prepared.ts).
  const texts: Record<string, string> = { lk: likeSql, ss: sessionSql };
  const run = (name: string, args: unknown[]) => pgc.query({ name, text: texts[name], values: args });
  const literal = (value: unknown): string =>
    Array.isArray(value)
      ? `'{${value.map((v) => (typeof v === 'string' ? `"${v}"` : String(v))).join(',')}}'`
      : value instanceof Date
        ? `'${value.toISOString()}'`
        : typeof value === 'string'
          ? `'${value}'`
          : String(value);
  // Kept sessions' token hashes, to look up real ones.
  const { rows: sessions } = await pgc.query<{ token_hash: string; uid: string }>(
    'SELECT token_hash, uid FROM sessions ORDER BY uid',
  );
  let next = 1;
  const likeArgs = (n: number) => {
    const batch = uids.slice(next, next + n);
    next += n;
    const p = [...likeParams];
    // Parameters in order: members, kinds, then the item's and uploader's values (see the statement).
    p[0] = batch;
    p[1] = batch.map(() => true);
    return p;
  };
  const sessionArgs = (n: number) => {
    const some = sessions.slice(0, n);
    return [some.map((s) => s.token_hash), some.map((s) => s.uid), new Date()];
  };
  const explain = async (name: string, args: unknown[]) => {
    await pgc.query('BEGIN');
    const { rows } = await pgc.query(
      `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, SUMMARY ON) EXECUTE ${name}(${args.map(literal).join(', ')})`,
    );
    await pgc.query('ROLLBACK');
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };
  const time = async (name: string, args: unknown[], runs: number) => {
    const t0 = performance.now();
    for (let i = 0; i < runs; i++) {
      await pgc.query('BEGIN');
      await run(name, args);
      await pgc.query('ROLLBACK');
    }
    return +((performance.now() - t0) / runs).toFixed(3);
  };
  // Five runs with custom plans, then the generic one (as each server connection).
  for (let i = 0; i < 6; i++) {
    await time('lk', likeArgs(10), 1);
    await time('ss', sessionArgs(10), 1);
  }
  console.log(
    'after six runs:',
    JSON.stringify((await pgc.query('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements')).rows),
  );
  let likes = 0;
  for (const size of SIZES) {
    // The item's likes grown to `size` (committed, through the same statement in batches of 100).
    while (likes < size) {
      const n = Math.min(100, size - likes);
      await run('lk', likeArgs(n));
      likes += n;
    }
    console.log(`\n===== item with ${likes} likes`);
    for (const n of BATCHES) {
      if (ONLY !== 'session') {
        const saved = next;
        console.log(`--- like batch of ${n}: ${await time('lk', likeArgs(n), 20)} ms a run (20 runs, rolled back)`);
        next = saved;
        console.log(await explain('lk', likeArgs(n)));
        // The same with its first member taking back an earlier like.
        const mixed = likeArgs(n);
        (mixed[0] as number[])[0] = uids[0];
        (mixed[1] as boolean[])[0] = false;
        next = saved;
        console.log(`--- with one unlike:\n${await explain('lk', mixed)}`);
        next = saved;
      }
      if (ONLY !== 'like') {
        console.log(`--- session batch of ${n}: ${await time('ss', sessionArgs(n), 20)} ms a run`);
        console.log(await explain('ss', sessionArgs(n)));
      }
    }
  }
  console.log(
    'plans used:',
    JSON.stringify((await pgc.query('SELECT name, generic_plans, custom_plans FROM pg_prepared_statements')).rows),
  );
  await pgc.end();
} catch (error) {
  console.error(error);
} finally {
  await server.close();
}
