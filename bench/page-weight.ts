/**
 * JavaScript shipped per page (gzip), measured on the built site: the scripts and island
 * modules a page references, followed through their static imports (what loads on first
 * visit) and, separately, the dynamic imports (what loads only on demand).
 * Usage: npm run build && node bench/page-weight.ts [route ...]
 * Pages rendered on demand (home, a video) are read from a running server of the same build:
 * PAGE_WEIGHT_SERVER=http://127.0.0.1:4321 node bench/page-weight.ts / /video/kv1
 */
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

const CLIENT = join('dist', 'client');
const SERVER = process.env.PAGE_WEIGHT_SERVER;
const routes = process.argv.slice(2).length ? process.argv.slice(2)
  : ['/welcome', '/en/search', '/en/history', '/en/upload', '/en/settings/privacy', '/en/settings/language', '/dev/test-mobile', ...(SERVER ? ['/', '/en/video/kv1'] : [])];
const BUDGET_KB = 300; // the video page's budget, hls.js lazily loaded (issue 5)

const pages = new Map<string, string>();
async function loadHtml(route: string): Promise<void> {
  const file = join(CLIENT, route, 'index.html');
  if (existsSync(file)) pages.set(route, readFileSync(file, 'utf8'));
  else if (SERVER) {
    const response = await fetch(new URL(route, SERVER), { redirect: 'manual' });
    if (response.status !== 200) throw new Error(`${route} answered ${response.status} on ${SERVER}`);
    pages.set(route, await response.text());
  } else throw new Error(`${route} is not prerendered (${file}); set PAGE_WEIGHT_SERVER to read it from a running server`);
}
const htmlFor = (route: string) => pages.get(route)!;

function entryScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]);
  // Inline module scripts import their chunks directly.
  for (const m of html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g)) for (const i of imports(m[1], '/').static) urls.add(i);
  return [...urls];
}

function imports(code: string, from: string): { static: string[]; dynamic: string[] } {
  const resolve = (spec: string) => (spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(from), spec)) : spec);
  const stat = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+\.js)["'`]/g)].map((m) => resolve(m[1]));
  const dyn = [...code.matchAll(/import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)].map((m) => resolve(m[1]));
  return { static: stat, dynamic: dyn };
}

function measure(route: string) {
  const seen = new Set<string>();
  const lazy = new Set<string>();
  const queue = entryScripts(htmlFor(route));
  let raw = 0;
  let gzip = 0;
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url) || !url.startsWith('/')) continue;
    seen.add(url);
    const code = readFileSync(join(CLIENT, url));
    raw += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
    const found = imports(code.toString(), url);
    queue.push(...found.static);
    found.dynamic.forEach((d) => lazy.add(d));
  }
  // What loads only on demand (e.g. the login dialog), with everything it imports in turn.
  const lazySeen = new Set<string>();
  const lazyQueue = [...lazy];
  let lazyGzip = 0;
  while (lazyQueue.length) {
    const url = lazyQueue.shift()!;
    if (seen.has(url) || lazySeen.has(url)) continue;
    lazySeen.add(url);
    const code = readFileSync(join(CLIENT, url));
    lazyGzip += gzipSync(code, { level: 9 }).length;
    const found = imports(code.toString(), url);
    lazyQueue.push(...found.static, ...found.dynamic);
  }
  const html = gzipSync(htmlFor(route), { level: 9 }).length;
  return { route, files: seen.size, jsBytes: raw, jsGzipBytes: gzip, lazyJsGzipBytes: lazyGzip, htmlGzipBytes: html, ratioToBudget: +(gzip / (BUDGET_KB * 1024)).toFixed(3) };
}

for (const route of routes) await loadHtml(route);
const results = routes.map(measure);
console.table(results.map((r) => ({ ...r, jsGzipKB: (r.jsGzipBytes / 1024).toFixed(1) })));
mkdirSync(join('bench', 'results'), { recursive: true });
writeFileSync(join('bench', 'results', 'page-weight.json'), `${JSON.stringify({ measuredAt: new Date().toISOString(), budgetKB: BUDGET_KB, results }, null, 2)}\n`);
