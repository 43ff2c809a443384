import { describe, expect, it } from 'vitest';
import {
  isChunkLoadFailure,
  RELOAD_GUARD_KEY,
  RELOAD_GUARD_MS,
  takeReloadGuard,
} from '../../src/lib/shell/chunk-recovery.js';

function memoryStore(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
  };
}

describe('the reload guard (SPEC §9: the path is kept for 10 s)', () => {
  it('lets a path reload once, then refuses it until the guard has passed', () => {
    const store = memoryStore();
    expect(takeReloadGuard('/en/search', 1_000, store)).toBe(true);
    expect(takeReloadGuard('/en/search', 1_000 + RELOAD_GUARD_MS - 1, store)).toBe(false);
    expect(takeReloadGuard('/en/search', 1_000 + RELOAD_GUARD_MS, store)).toBe(true);
  });

  it('guards one path at a time: another page may reload at once', () => {
    const store = memoryStore();
    expect(takeReloadGuard('/en/search', 5_000, store)).toBe(true);
    expect(takeReloadGuard('/en/history', 5_001, store)).toBe(true);
    expect(takeReloadGuard('/en/search', 5_002, store)).toBe(true);
  });

  it('treats an unreadable or future-dated guard as none', () => {
    expect(takeReloadGuard('/', 10, memoryStore({ [RELOAD_GUARD_KEY]: '{not json' }))).toBe(true);
    expect(
      takeReloadGuard('/', 10, memoryStore({ [RELOAD_GUARD_KEY]: JSON.stringify({ path: '/', at: 99_999 }) })),
    ).toBe(true);
    expect(takeReloadGuard('/', 10, memoryStore({ [RELOAD_GUARD_KEY]: 'null' }))).toBe(true);
  });
});

describe('what counts as a missing chunk', () => {
  it('knows how Chromium, Firefox and Safari say a module could not be fetched', () => {
    expect(
      isChunkLoadFailure(new TypeError('Failed to fetch dynamically imported module: https://x/_astro/a.js')),
    ).toBe(true);
    expect(isChunkLoadFailure(new TypeError('error loading dynamically imported module: https://x/_astro/a.js'))).toBe(
      true,
    );
    expect(isChunkLoadFailure(new TypeError('Importing a module script failed.'))).toBe(true);
  });

  it('leaves a failed API call and other errors alone', () => {
    expect(isChunkLoadFailure(new TypeError('Failed to fetch'))).toBe(false);
    expect(isChunkLoadFailure(new Error('Minified React error #418'))).toBe(false);
    expect(isChunkLoadFailure('Failed to fetch dynamically imported module')).toBe(false);
  });
});
