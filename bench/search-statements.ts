/**
 * Where a search's time goes, statement by statement (issue 30): runs `videos.thumbPage` page 1
 * by relevance for each query of SCALE_WORDS (comma-separated) on an existing database, once to
 * warm and then timed, printing each statement the search sent with its time and rows; with
 * EXPLAIN=1 also each statement's `EXPLAIN (ANALYZE, BUFFERS)`.
 * Usage: [ROOT=<checkout>] node bench/search-statements.ts <database url>
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { Kysely, PostgresDialect, type LogEvent } from 'kysely';
import pg from 'pg';

const url = process.argv[2];
if (!url) throw new Error('usage: node bench/search-statements.ts <database url>');
const root = process.env.ROOT ?? resolve(import.meta.dirname, '..');
const WORDS = (process.env.SCALE_WORDS ?? '星空 ギター,猫 guitar').split(',');
const { createRepositories } = await import(`${root}/server/repositories/index.ts`);
const { searchTerms } = await import(`${root}/server/services/search-text.ts`);

const events: LogEvent[] = [];
pg.types.setTypeParser(20, Number);
const pool = new pg.Pool({ connectionString: url, max: 4, options: '-c jit=off' });
const db = new Kysely<never>({ dialect: new PostgresDialect({ pool }), log: (event) => void events.push(event) });
const repositories = createRepositories(db);

for (const keyword of WORDS) {
  const search = () =>
    repositories.videos.thumbPage(
      { statuses: ['approved'], words: searchTerms(keyword) },
      { page: 1, pageSize: 20 },
      'relevance',
    );
  await search();
  events.length = 0;
  const started = performance.now();
  const page = await search();
  const total = performance.now() - started;
  const sent = [...events];
  console.log(`\n== ${keyword}: ${total.toFixed(1)} ms, count ${page.count}, load ${loadavg()[0].toFixed(1)}`);
  for (const event of sent) {
    const rows = event.level === 'query' ? '' : ' FAILED';
    const text = event.query.sql.replace(/\s+/g, ' ');
    console.log(`  ${event.queryDurationMillis.toFixed(1).padStart(7)} ms${rows}  ${text.slice(0, 160)}`);
    if (process.env.EXPLAIN && /^\s*select/i.test(event.query.sql)) {
      const client = await pool.connect();
      try {
        const result = await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${event.query.sql}`, [...event.query.parameters]);
        for (const row of result.rows) console.log(`      ${row['QUERY PLAN']}`);
      } finally {
        client.release();
      }
    }
  }
}
await db.destroy();
