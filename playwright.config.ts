import { defineConfig, devices } from '@playwright/test';

/**
 * Browser tests of the shell (tests/e2e). They run against the built site (`npx astro build`
 * first) served by the real process (scripts/e2e-server.sh: a fresh data directory with an
 * administrator and invitation codes from the command line, mail in a known outbox).
 * Chromium is Debian's (/usr/bin/chromium): no browser is downloaded.
 */
const PORT = Number(process.env.E2E_PORT) || 4477;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 2,
  // In CI a failed test runs once more: one that passes then is reported by name as passing only
  // on retry (scripts/test.ts), a timing defect to fix, while a real failure still fails twice.
  retries: process.env.CI ? 1 : 0,
  forbidOnly: !!process.env.CI,
  reporter: 'list',
  // Whole flows (sign up, upload, review) on a 2-core machine that may be busy with other work:
  // the time limit only catches hangs; every wait inside a test is on a state, never a duration.
  timeout: 60_000,
  expect: { timeout: 5_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // The site's default language is Simplified Chinese; a browser that asks for it is served '/' as is.
    // Tests about locale detection open their own contexts with other languages.
    locale: 'zh-CN',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: '/usr/bin/chromium',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-dev-shm-usage',
          ],
        },
      },
    },
  ],
  webServer: {
    command: 'bash scripts/e2e-server.sh',
    url: `http://127.0.0.1:${PORT}/api/health`,
    // TRUST_PROXY lets tests give each new member its own address (X-Forwarded-For), so the
    // per-address registration limit applies to them as to real visitors.
    env: { PORT: String(PORT), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DEMO: '0', TRUST_PROXY: '1' },
    // Always a fresh server: the tests read its outbox and invitation codes.
    reuseExistingServer: false,
    // The server start (CLI set-up, then the process) takes ~15 s on a quiet machine, far more on a
    // busy one (E2E_SERVER_TIMEOUT_MS waits longer).
    timeout: Number(process.env.E2E_SERVER_TIMEOUT_MS) || 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
