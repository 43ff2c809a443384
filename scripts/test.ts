/**
 * `npm test`: builds the site, then runs every test (unit and API with Vitest, browser with
 * Playwright on Debian's Chromium) and closes with one 'N passed, N failed' line.
 */
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const REPORTS = join('tests', '.tmp');
const binPath = join(process.cwd(), 'node_modules', '.bin');
const env = {
  ...process.env,
  PATH: `${binPath}:${process.env.PATH}`,
  ASTRO_TELEMETRY_DISABLED: '1',
  CHROMIUM_PATH: CHROMIUM,
};

/** Each step's wall time, printed at the end: where a slow run's time went, in every CI log. */
const stepSeconds: Array<[string, number]> = [];

function run(command: string, args: string[], options: SpawnSyncOptions = {}): number {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const started = performance.now();
  const result = spawnSync(command, args, { stdio: 'inherit', env, ...options });
  stepSeconds.push([
    command === 'npm' ? String(args.at(-1)) : `${command} ${args[0]}`,
    (performance.now() - started) / 1000,
  ]);
  return result.status ?? 1;
}

/** The slowest files of a runner's report, by the time its tests took. */
function slowestFiles(file: string, durations: (json: any) => Map<string, number>, count = 6): string {
  try {
    return [...durations(JSON.parse(readFileSync(file, 'utf8')))]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, ms]) => `${name.replace(/^.*tests\//, '')} ${(ms / 1000).toFixed(0)} s`)
      .join(', ');
  } catch {
    return 'no report';
  }
}

function vitestFileDurations(json: { testResults: Array<{ name: string; startTime: number; endTime: number }> }) {
  return new Map(json.testResults.map((r) => [r.name, r.endTime - r.startTime]));
}

function playwrightFileDurations(json: { suites: PlaywrightSuite[] }) {
  const durations = new Map<string, number>();
  const visit = (suite: PlaywrightSuite, file: string) => {
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        for (const result of test.results ?? []) durations.set(file, (durations.get(file) ?? 0) + result.duration);
    for (const child of suite.suites ?? []) visit(child, file);
  };
  for (const suite of json.suites) visit(suite, suite.file ?? suite.title);
  return durations;
}

function ensureChromium(): void {
  if (existsSync(CHROMIUM)) return;
  if (process.getuid?.() === 0) {
    console.log('Chromium is missing: installing Debian’s package (apt-get install chromium)…');
    run('apt-get', ['update', '-qq']);
    if (
      run('apt-get', ['install', '-y', '-qq', 'chromium', 'fonts-noto-cjk'], {
        env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
      }) === 0
    )
      return;
  }
  console.error(
    `The browser tests need Debian's Chromium at ${CHROMIUM}. Install it with:\n  sudo apt-get update && sudo apt-get install -y chromium fonts-noto-cjk\nor set CHROMIUM_PATH to another Chromium binary.`,
  );
  process.exit(1);
}

function count(file: string, pick: (json: any) => { passed: number; failed: number; skipped: number }) {
  try {
    return pick(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return { passed: 0, failed: 1, skipped: 0 }; // no report: the runner itself failed
  }
}

/** The part of Playwright's JSON report read here. */
interface PlaywrightSuite {
  title: string;
  file?: string;
  specs?: Array<{ title: string; tests: Array<{ status: string; results?: Array<{ duration: number }> }> }>;
  suites?: PlaywrightSuite[];
}

/** The titles of the browser tests whose first run failed and whose retry passed. */
function flakyTests(file: string): string[] {
  const titles: string[] = [];
  const visit = (suite: PlaywrightSuite, path: string[]) => {
    for (const spec of suite.specs ?? [])
      if (spec.tests.some((t) => t.status === 'flaky')) titles.push([...path, spec.title].join(' › '));
    for (const child of suite.suites ?? []) visit(child, [...path, child.title]);
  };
  try {
    for (const suite of (JSON.parse(readFileSync(file, 'utf8')) as { suites: PlaywrightSuite[] }).suites)
      visit(suite, [suite.title]);
  } catch {
    // no report: counted as a failure above
  }
  return titles;
}

if (Number(process.versions.node.split('.')[0]) < 24) {
  console.error(
    `Node ${process.version} is running the tests; the project needs Node 24 from node_modules/.bin (run through npm, or put node_modules/.bin first on PATH).`,
  );
  process.exit(1);
}
ensureChromium();
rmSync(REPORTS, { recursive: true, force: true });
mkdirSync(REPORTS, { recursive: true });

// Static checks first, each an npm script that also runs alone (`npm run check:lint`): the
// boundaries between parts (dependency-cruiser, .dependency-cruiser.cjs), the dependencies of
// package.json against what the code imports (knip, knip.json), the linter and formatter (Biome, biome.json)
// and the types, which tie every handler and client call to its entry in the route table; and no
// relative import three or more levels deep where an alias (#lib/, #server/…) reaches the same file.
const checks = [
  { name: 'boundaries', status: run('npm', ['run', '--silent', 'check:boundaries']) },
  { name: 'dependencies', status: run('npm', ['run', '--silent', 'check:dependencies']) },
  { name: 'lint', status: run('npm', ['run', '--silent', 'check:lint']) },
  { name: 'aliases', status: run('npm', ['run', '--silent', 'check:aliases']) },
  { name: 'types', status: run('npm', ['run', '--silent', 'typecheck']) },
];
for (const check of checks) if (check.status !== 0) console.error(`The ${check.name} check failed.`);

if (run('astro', ['build']) !== 0) {
  console.error('The site did not build.');
  console.log('\ntests: 0 passed, 1 failed');
  process.exit(1);
}
const vitestFile = join(REPORTS, 'vitest.json');
const playwrightFile = join(REPORTS, 'playwright.json');
const vitestStatus = run('vitest', ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestFile}`]);
const playwrightStatus = run('playwright', ['test', '--reporter=list,json'], {
  env: { ...env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightFile },
});

const unit = count(vitestFile, (j) => ({
  passed: j.numPassedTests,
  failed: j.numFailedTests,
  skipped: j.numPendingTests + (j.numTodoTests ?? 0),
}));
// A browser test that failed and then passed on its one retry (playwright.config.ts, CI only)
// counts as passed, and is named below so that it is fixed, not forgotten.
const browser = count(playwrightFile, (j) => ({
  passed: j.stats.expected + (j.stats.flaky ?? 0),
  failed: j.stats.unexpected,
  skipped: j.stats.skipped,
}));
const flaky = flakyTests(playwrightFile);
const checksFailed = checks.filter((check) => check.status !== 0).length;
const passed = unit.passed + browser.passed + checks.length - checksFailed;
const failed =
  unit.failed +
  browser.failed +
  checksFailed +
  (vitestStatus && !unit.failed ? 1 : 0) +
  (playwrightStatus && !browser.failed ? 1 : 0);
const skipped = unit.skipped + browser.skipped;
console.log(`\nunit and API: ${unit.passed} passed, ${unit.failed} failed, ${unit.skipped} skipped`);
console.log(
  `browser: ${browser.passed} passed (${flaky.length} only on retry), ${browser.failed} failed, ${browser.skipped} skipped`,
);
for (const title of flaky) console.log(`  passed only on retry: ${title}`);
console.log(
  `static checks: ${checks.map((check) => `${check.name} ${check.status === 0 ? 'passed' : 'failed'}`).join(', ')}`,
);
console.log(`steps: ${stepSeconds.map(([name, seconds]) => `${name} ${seconds.toFixed(0)} s`).join(', ')}`);
console.log(`slowest unit and API files: ${slowestFiles(vitestFile, vitestFileDurations)}`);
console.log(`slowest browser files (their tests' time): ${slowestFiles(playwrightFile, playwrightFileDurations)}`);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed ? 1 : 0);
