/**
 * Issue 30's search and uncached danmaku segment, in-process, with two checkouts' code on one
 * database (a database seeded by bench/scale.ts and kept): A's repository or service, then B's,
 * in the order given (ABBA), median / max ms of the samples, the load after each side.
 * - search: `videos.thumbPage` page 1 by relevance, for each word of SCALE_WORDS (comma-separated);
 * - segment: segment 0 of a video built with a fresh list cache per call, then its gzip body.
 * Usage: node bench/scale-side-by-side.ts <search|segment> <database url> [order=ABBA] [samples=5] [videoId]
 * A_ROOT (default /work/main) and B_ROOT (default this checkout) are the two checkouts.
 */
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const [what, url, order = 'ABBA', samples = '5', videoArg] = process.argv.slice(2);
if ((what !== 'search' && what !== 'segment') || !url)
  throw new Error(
    'usage: node bench/scale-side-by-side.ts <search|segment> <database url> [order] [samples] [videoId]',
  );
const WORDS = (process.env.SCALE_WORDS ?? '猫,星空,ギター,コーヒー,starry sky,レトロ,guitar,zzqxjv').split(',');
const roots = { A: process.env.A_ROOT ?? '/work/main', B: process.env.B_ROOT ?? resolve(import.meta.dirname, '..') };

async function sideOf(root: string) {
  const { openDatabase } = await import(`${root}/server/db/database.ts`);
  const { createRepositories } = await import(`${root}/server/repositories/index.ts`);
  const { searchTerms } = await import(`${root}/server/services/search-text.ts`);
  const danmaku = await import(`${root}/server/services/danmaku.ts`);
  const { db } = await openDatabase({ databaseUrl: url });
  return { db, repositories: createRepositories(db), searchTerms, danmaku };
}
type Side = Awaited<ReturnType<typeof sideOf>>;
const sides: Record<string, Side> = { A: await sideOf(roots.A), B: await sideOf(roots.B) };

/** The work of one sample, answering what to show of it. */
async function sample(side: string, s: Side, key: string): Promise<string> {
  if (what === 'search') {
    const page = await s.repositories.videos.thumbPage(
      { statuses: ['approved'], words: s.searchTerms(key) },
      { page: 1, pageSize: 20 },
      'relevance',
    );
    return `count ${page.count}, page ${page.rows.map((r: { video_id: number }) => r.video_id).join(',')}`;
  }
  const videoId = Number(key);
  const { duration_ms: ms } = await s.db
    .selectFrom('videos')
    .select('duration_ms')
    .where('video_id', '=', videoId)
    .executeTakeFirstOrThrow();
  const service = s.danmaku.createDanmakuService(
    s.repositories,
    { hit: async () => {} },
    s.danmaku.createDanmakuListCache(),
  );
  const target = { type: 'video', id: videoId };
  // main's listAnswer took the segment count, this branch's the duration (decision 0034).
  const entry = await (side === 'A' && process.env.A_SEGMENT_COUNT !== '0'
    ? service.listAnswer(target, 0, s.danmaku.segmentCountOf(ms))
    : service.listAnswer(target, ms, 0));
  await s.danmaku.encodedAnswer(entry, 'gzip');
  return `${JSON.parse(new TextDecoder().decode(entry.body)).danmaku.length} rows, ${(entry.body.length / 1e6).toFixed(2)} MB`;
}

const keys = what === 'search' ? WORDS : [videoArg ?? ''];
const results: Record<string, Record<string, string[]>> = {};
for (const side of order.split('')) {
  for (const key of keys) {
    const times: number[] = [];
    let shown = '';
    for (let i = 0; i <= Number(samples); i += 1) {
      const started = performance.now();
      shown = await sample(side, sides[side]!, key);
      if (i > 0) times.push(performance.now() - started); // the first warms the connection and caches
    }
    times.sort((a, b) => a - b);
    ((results[key] ??= {})[side] ??= []).push(
      `${times[Math.floor(times.length / 2)]!.toFixed(1)} / ${times[times.length - 1]!.toFixed(1)}`,
    );
    if (process.env.SHOW) console.log(side, key, shown);
  }
  console.log(
    `side ${side} done, load ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
}
for (const [key, bySide] of Object.entries(results))
  console.log(`${key.padEnd(14)} A ${bySide.A?.join('  ') ?? '-'} | B ${bySide.B?.join('  ') ?? '-'}`);
process.exit(0);
