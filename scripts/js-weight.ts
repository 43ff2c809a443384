/**
 * JavaScript a page loads, measured on the built site: the scripts and island modules its HTML
 * references, followed through their static imports (what loads on first visit) and,
 * separately, the dynamic imports (what loads only on demand). Used by bench/page-weight.ts and
 * the budgets of tests/e2e/budgets.spec.ts.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

export const CLIENT_DIR = join('dist', 'client');

export interface JsWeight {
  files: number;
  jsBytes: number;
  jsGzipBytes: number;
  lazyJsGzipBytes: number;
  htmlGzipBytes: number;
}

function entryScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const m of html.matchAll(/<script[^>]*\ssrc="([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/(?:component-url|renderer-url)="([^"]+\.js)"/g)) urls.add(m[1]);
  for (const m of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1]);
  // Inline module scripts import their chunks directly.
  for (const m of html.matchAll(/<script type="module">([\s\S]*?)<\/script>/g))
    for (const i of imports(m[1], '/').static) urls.add(i);
  return [...urls];
}

function imports(code: string, from: string): { static: string[]; dynamic: string[] } {
  const resolve = (spec: string) =>
    spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(from), spec)) : spec;
  const stat = [...code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+\.js)["'`]/g)].map((m) =>
    resolve(m[1]),
  );
  const dyn = [...code.matchAll(/import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)].map((m) => resolve(m[1]));
  return { static: stat, dynamic: dyn };
}

/**
 * The page's JavaScript (gzip level 9) and its HTML, from the page's HTML and the build.
 * `lazyEntries`: which on-demand chunks count as lazy (all by default), e.g. only the one a viewer
 * loads to play, leaving out those of rarer acts (a dialog, a closed panel, a subtitle renderer).
 */
export function jsWeightOf(html: string, client = CLIENT_DIR, lazyEntries = /./): JsWeight {
  const seen = new Set<string>();
  const lazy = new Set<string>();
  const queue = entryScripts(html);
  let raw = 0;
  let gzip = 0;
  while (queue.length) {
    const url = queue.shift()!;
    if (seen.has(url) || !url.startsWith('/')) continue;
    seen.add(url);
    const code = readFileSync(join(client, url));
    raw += code.length;
    gzip += gzipSync(code, { level: 9 }).length;
    const found = imports(code.toString(), url);
    queue.push(...found.static);
    found.dynamic.forEach((d) => lazy.add(d));
  }
  // What loads only on demand (e.g. the login dialog), with everything it imports in turn.
  const lazySeen = new Set<string>();
  const lazyQueue = [...lazy].filter((url) => lazyEntries.test(url));
  let lazyGzip = 0;
  while (lazyQueue.length) {
    const url = lazyQueue.shift()!;
    if (seen.has(url) || lazySeen.has(url)) continue;
    lazySeen.add(url);
    const code = readFileSync(join(client, url));
    lazyGzip += gzipSync(code, { level: 9 }).length;
    const found = imports(code.toString(), url);
    lazyQueue.push(...found.static, ...found.dynamic);
  }
  return {
    files: seen.size,
    jsBytes: raw,
    jsGzipBytes: gzip,
    lazyJsGzipBytes: lazyGzip,
    htmlGzipBytes: gzipSync(html, { level: 9 }).length,
  };
}
