import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT, readServerConfig } from '../../server/config.ts';

/** Variables in the table that the server's schema does not read, and who reads them instead. */
const READ_ELSEWHERE: Record<string, string> = {
  TEST_DATABASE_URL: 'the API tests (tests/api/harness.ts)',
  FFMPEG_PATH: 'where the binary is looked up (server/media/ffmpeg.ts)',
  FFPROBE_PATH: 'where the binary is looked up (server/media/ffmpeg.ts)',
};

/** The README's configuration table as variable → default, as written (without backticks). */
function readmeDefaults(): Map<string, string> {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(
    readme.indexOf('## Configuration'),
    readme.indexOf('\n### ', readme.indexOf('## Configuration')),
  );
  const rows = new Map<string, string>();
  for (const line of section.split('\n').filter((l) => l.startsWith('| `'))) {
    const [nameCell, defaultCell] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    const names = [...nameCell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]);
    const quoted = [...defaultCell.matchAll(/`([^`]*)`/g)].map((m) => m[1]);
    // `A`, `B` | `1`, `2`: one default each; otherwise the cell is every name's default.
    const defaults =
      names.length > 1 && quoted.length === names.length ? quoted : names.map(() => defaultCell.replaceAll('`', ''));
    names.forEach((name, i) => rows.set(name, defaults[i]));
  }
  return rows;
}

describe("the README's configuration table", () => {
  const readme = readmeDefaults();
  const schema = new Map(
    Object.entries(ENVIRONMENT.shape).map(([name, setting]) => [
      name,
      (setting.meta() as { shownDefault: string }).shownDefault,
    ]),
  );

  it('names every variable of the schema, and only those (fix the table or server/config.ts)', () => {
    const documented = [...readme.keys()].filter((name) => !(name in READ_ELSEWHERE)).sort();
    expect(documented).toEqual([...schema.keys()].sort());
  });

  it("gives each variable the schema's default", () => {
    const differing = [...schema]
      .filter(([name, shown]) => readme.get(name) !== shown)
      .map(([name, shown]) => `${name}: README "${readme.get(name)}", schema "${shown}"`);
    expect(differing).toEqual([]);
  });

  it('describes every variable in the schema', () => {
    for (const [name, setting] of Object.entries(ENVIRONMENT.shape))
      expect((setting.meta() as { description?: string }).description, name).toMatch(/\w/);
  });

  it('reads the defaults the table states', () => {
    const config = readServerConfig({});
    expect([
      config.port,
      config.host,
      config.mailFrom,
      config.whoMayUpload,
      config.maxOpenUploads,
      config.uploadMaxBytes,
      config.logLevel,
    ]).toEqual([4321, 'localhost', schema.get('MAIL_FROM'), 'members', 3, 8 * 1024 ** 3, 'info']);
    expect([
      config.shutdownGraceMs,
      config.live.heartbeatMs,
      config.live.maxBufferedBytes,
      config.sitemapVideosPerFile,
    ]).toEqual(
      ['SHUTDOWN_GRACE_MS', 'LIVE_HEARTBEAT_MS', 'LIVE_MAX_BUFFERED_BYTES', 'SITEMAP_VIDEOS_PER_FILE'].map((name) =>
        Number(schema.get(name)),
      ),
    );
    // An unusable value falls back to the default, as before the schema.
    expect(readServerConfig({ UPLOAD_SWEEP_MS: 'soon', LOG_LEVEL: 'loud', MAX_OPEN_UPLOADS: '0' })).toMatchObject({
      uploadSweepMs: 3_600_000,
      logLevel: 'info',
      maxOpenUploads: 3,
    });
  });
});
