import type { AstroIntegration } from 'astro';
import { mkdir, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { LOCALES } from '../lib/i18n/locales.ts';
import { dependencyLicences } from './licences.ts';

/** The commit the site is built from: KIRABOSHI_COMMIT (a CI's), else git's; 'unknown' outside a checkout. */
function buildCommit(): string {
  if (process.env.KIRABOSHI_COMMIT) return process.env.KIRABOSHI_COMMIT;
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return 'unknown';
  }
}

const PAYLOAD_RE = /<script type="application\/json" id="__payload">([\s\S]*?)<\/script>/;

async function* htmlFiles(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* htmlFiles(path);
    else if (entry.name === 'index.html') yield path;
  }
}

/** Built assets worth compressing ahead: big enough that compressing them on a first request stalls it. */
const PRECOMPRESSED = /\.(wasm|js|ttf|otf)$/;
const PRECOMPRESS_MIN_BYTES = 256 * 1024;

/**
 * `X.br` and `X.gz` beside each big built asset (the subtitle renderer's 2 MB WebAssembly: brotli 9
 * of it takes most of a second, which the first viewer after a start waited for), at the
 * levels server/site/static-files.ts uses, which sends them as they are.
 */
async function precompressAssets(dir: string): Promise<number> {
  const brotli = promisify(brotliCompress);
  const gz = promisify(gzip);
  let count = 0;
  for (const entry of await readdir(dir)) {
    const file = join(dir, entry);
    if (!PRECOMPRESSED.test(entry) || (await stat(file)).size < PRECOMPRESS_MIN_BYTES) continue;
    const body = await readFile(file);
    await writeFile(
      `${file}.br`,
      await brotli(body, {
        params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength },
      }),
    );
    await writeFile(`${file}.gz`, await gz(body, { level: 9 }));
    count++;
  }
  return count;
}

/**
 * Writes what the framework requests of SPEC §7 need beside the prerendered pages:
 * - {page}/_payload.json: each page's data (the same JSON its HTML embeds), for client-side use;
 * - _i18n/{locale}/messages.json: one locale's messages, as { [locale]: messages };
 * - _app/builds/latest.json: the outdated-build check (no builds/meta/{buildId}.json: nothing in a
 *   multi-page site reads route rules in the browser, docs/decisions/0018-no-build-meta.md);
 * - _app/licences.json: the licences of the dependencies (also listed on settings/about);
 * - _astro/X.br and X.gz for the big assets (precompressAssets).
 */
export default function buildArtifacts(): AstroIntegration {
  const buildId = process.env.KIRABOSHI_BUILD_ID || `${Date.now().toString(36)}-${randomBytes(3).toString('hex')}`;
  return {
    name: 'kiraboshi:build-artifacts',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
        updateConfig({
          vite: {
            define: {
              __BUILD_ID__: JSON.stringify(buildId),
              __BUILD_COMMIT__: JSON.stringify(buildCommit()),
              __BUILD_TIME__: JSON.stringify(new Date().toISOString()),
              __APP_VERSION__: JSON.stringify(version),
            },
          },
        });
      },
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        let pages = 0;
        for await (const file of htmlFiles(root)) {
          const match = PAYLOAD_RE.exec(await readFile(file, 'utf8'));
          if (!match) continue;
          await writeFile(
            join(file, '..', '_payload.json'),
            JSON.parse(JSON.stringify(match[1])).replace(/\\u003c/g, '<'),
          );
          pages++;
        }
        const { messagesFor } = await import('../lib/i18n/catalogs.ts');
        for (const locale of LOCALES) {
          await mkdir(join(root, '_i18n', locale), { recursive: true });
          await writeFile(
            join(root, '_i18n', locale, 'messages.json'),
            JSON.stringify({ [locale]: messagesFor(locale) }),
          );
        }
        await mkdir(join(root, '_app', 'builds'), { recursive: true });
        await writeFile(
          join(root, '_app', 'builds', 'latest.json'),
          JSON.stringify({ id: buildId, timestamp: Date.now() }),
        );
        await writeFile(join(root, '_app', 'licences.json'), JSON.stringify(dependencyLicences()));
        const precompressed = await precompressAssets(join(root, '_astro'));
        logger.info(
          `build ${buildId}: ${pages} payloads, ${LOCALES.length} message files, ${precompressed} assets precompressed`,
        );
      },
    },
  };
}
