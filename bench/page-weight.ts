/**
 * JavaScript shipped per page (gzip), measured on the built site: the scripts and island
 * modules a page references, followed through their static imports (what loads on first
 * visit) and, separately, the dynamic imports (what loads only on demand).
 * Usage: npm run build && node bench/page-weight.ts [route ...]
 * Pages rendered on demand (home, search, a video) are read from a running server of the same build:
 * PAGE_WEIGHT_SERVER=http://127.0.0.1:4321 node bench/page-weight.ts / /video/kv1
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { jsWeightOf } from '../scripts/js-weight.ts';

const CLIENT = join('dist', 'client');
const SERVER = process.env.PAGE_WEIGHT_SERVER;
const routes = process.argv.slice(2).length
  ? process.argv.slice(2)
  : [
      '/welcome',
      '/en/history',
      '/en/upload',
      '/en/settings/privacy',
      '/en/settings/language',
      '/dev/test-mobile',
      ...(SERVER ? ['/', '/en/search?keyword=demo', '/en/video/kv1'] : []),
    ];
const BUDGET_KB = 300; // the video page's budget, hls.js lazily loaded (issue 5)

const pages = new Map<string, string>();
async function loadHtml(route: string): Promise<void> {
  const file = join(CLIENT, route, 'index.html');
  if (existsSync(file)) pages.set(route, readFileSync(file, 'utf8'));
  else if (SERVER) {
    const response = await fetch(new URL(route, SERVER), { redirect: 'manual' });
    if (response.status !== 200) throw new Error(`${route} answered ${response.status} on ${SERVER}`);
    pages.set(route, await response.text());
  } else
    throw new Error(`${route} is not prerendered (${file}); set PAGE_WEIGHT_SERVER to read it from a running server`);
}
const htmlFor = (route: string) => pages.get(route)!;

function measure(route: string) {
  const weight = jsWeightOf(htmlFor(route), CLIENT);
  return { route, ...weight, ratioToBudget: +(weight.jsGzipBytes / (BUDGET_KB * 1024)).toFixed(3) };
}

for (const route of routes) await loadHtml(route);
const results = routes.map(measure);
console.table(results.map((r) => ({ ...r, jsGzipKB: (r.jsGzipBytes / 1024).toFixed(1) })));
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(
  join('bench', 'results', 'page-weight.json'),
  `${JSON.stringify({ measuredAt: new Date().toISOString(), budgetKB: BUDGET_KB, results }, null, 2)}\n`,
);
