import { describe, expect, it } from 'vitest';
import {
  AA_CONTROL,
  AA_TEXT,
  PALETTES,
  PALETTE_NAMES,
  SCHEME_BACKGROUNDS,
  SOFT_SHARE,
  THEME_DEFAULTS,
  contrast,
  derivePalette,
  mix,
  normalizeHex,
  paletteBase,
  reconcileThemeValues,
  storeThemeValue,
} from '../../src/lib/theme/theme-core.js';
import { THEME_INLINE_SCRIPT } from '../../src/lib/theme/inline-script.ts';

/** A document.cookie look-alike: writes set one cookie (attributes recorded), reads list them. */
function fakeDocument(initial: Record<string, string> = {}) {
  const jar = new Map(Object.entries(initial));
  const writes: string[] = [];
  return {
    writes,
    jar,
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    },
    set cookie(line: string) {
      writes.push(line);
      const [pair] = line.split('; ');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at), decodeURIComponent(pair!.slice(at + 1)));
    },
  };
}
function fakeStorage(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
}

describe('contrast arithmetic', () => {
  it('matches WCAG reference values', () => {
    expect(contrast('000000', 'ffffff')).toBeCloseTo(21, 5);
    expect(contrast('ffffff', 'ffffff')).toBe(1);
    // The measurement: the old accent on white.
    expect(contrast('f06e8e', 'ffffff')).toBeCloseTo(2.9, 1);
    expect(normalizeHex('#ABC')).toBe('aabbcc');
    expect(normalizeHex('nothex')).toBeNull();
  });
});

describe('every palette meets WCAG AA in light and dark', () => {
  // The fixed palettes, the custom default, and custom or wallpaper colours at the extremes.
  const bases = {
    ...PALETTES,
    customDefault: 'f06e8e',
    white: 'ffffff',
    black: '000000',
    grey: '777777',
    lime: 'ccff00',
    navy: '000080',
  };
  for (const scheme of ['light', 'dark'] as const) {
    for (const [name, base] of Object.entries(bases)) {
      it(`${name} in ${scheme}`, () => {
        const c = derivePalette(base, scheme);
        const backgrounds = SCHEME_BACKGROUNDS[scheme];
        for (const bg of backgrounds) {
          expect(contrast(c.accent, bg), `accent fill on ${bg}`).toBeGreaterThanOrEqual(AA_CONTROL);
          expect(contrast(c.accentText, bg), `accent text on ${bg}`).toBeGreaterThanOrEqual(AA_TEXT);
          // Chips and active items: accent text on the soft tint over each background.
          expect(
            contrast(c.accentText, mix(c.accent, bg, SOFT_SHARE)),
            `accent text on tint over ${bg}`,
          ).toBeGreaterThanOrEqual(AA_TEXT);
        }
        expect(contrast(c.onAccent, c.accent), 'text on the accent fill').toBeGreaterThanOrEqual(AA_TEXT);
      });
    }
  }
  it('keeps a palette colour that already passes (dark pink is the brand pink itself)', () => {
    expect(derivePalette('f06e8e', 'dark').accent).toBe('f06e8e');
    expect(derivePalette('f06e8e', 'light').accent).not.toBe('f06e8e');
  });
  it('resolves custom and wallpaper bases, falling back to pink', () => {
    expect(paletteBase('custom', '123456', null)).toBe('123456');
    expect(paletteBase('custom', 'zzz', null)).toBe('f06e8e');
    expect(paletteBase('wallpaper', null, '#3366FF')).toBe('3366ff');
    expect(paletteBase('wallpaper', null, null)).toBe('f06e8e');
    expect(PALETTE_NAMES).toEqual(['pink', 'blue', 'purple', 'yellow', 'green', 'cyan', 'red', 'custom', 'wallpaper']);
  });
});

describe('theme cookies and storage (SPEC §4)', () => {
  it('fills defaults when nothing is stored, and writes nothing', () => {
    const doc = fakeDocument();
    const values = reconcileThemeValues(doc, fakeStorage());
    expect(values).toMatchObject(THEME_DEFAULTS);
    expect(values['theme-color']).toBe('wallpaper');
    expect(values['theme-color-custom']).toBe('f06e8e');
    expect(doc.writes).toEqual([]);
  });
  it('copies storage to cookies when is-offline-settings is absent', () => {
    const doc = fakeDocument({ 'theme-type': 'light' });
    const values = reconcileThemeValues(doc, fakeStorage({ 'theme-type': 'dark', 'theme-color': 'blue' }));
    expect(values['theme-type']).toBe('dark');
    expect(doc.jar.get('theme-type')).toBe('dark');
    expect(doc.jar.get('theme-color')).toBe('blue');
  });
  it('copies storage to cookies when is-offline-settings is true', () => {
    const doc = fakeDocument({ 'theme-color': 'red' });
    const storage = fakeStorage({ 'is-offline-settings': 'true', 'theme-color': 'green' });
    expect(reconcileThemeValues(doc, storage)['theme-color']).toBe('green');
    expect(doc.jar.get('theme-color')).toBe('green');
  });
  it('copies cookies into storage when is-offline-settings is false (the server copy was synced)', () => {
    const doc = fakeDocument({ 'is-offline-settings': 'false', 'theme-color': 'cyan', 'colored-side-bar': 'true' });
    const storage = fakeStorage({ 'is-offline-settings': 'false', 'theme-color': 'pink' });
    const values = reconcileThemeValues(doc, storage);
    expect(values['theme-color']).toBe('cyan');
    expect(values['colored-side-bar']).toBe('true');
    expect(storage.map.get('theme-color')).toBe('cyan');
    expect(storage.map.get('colored-side-bar')).toBe('true');
    expect(doc.writes).toEqual([]);
  });
  it('writes theme cookies until the year 9999, SameSite strict, site-wide', () => {
    const doc = fakeDocument();
    const storage = fakeStorage();
    storeThemeValue(doc, storage, 'theme-type', 'dark');
    expect(doc.writes[0]).toBe('theme-type=dark; expires=Fri, 31 Dec 9999 23:59:59 GMT; path=/; SameSite=Strict');
    expect(storage.map.get('theme-type')).toBe('dark');
  });
  it('works with storage blocked (cookies alone)', () => {
    const doc = fakeDocument({ 'theme-type': 'dark' });
    const blocked = {
      getItem() {
        throw new Error('denied');
      },
      setItem() {
        throw new Error('denied');
      },
    };
    expect(reconcileThemeValues(doc, blocked)['theme-type']).toBe('dark');
  });
});

describe('the inline first-paint script', () => {
  function runInline(options: {
    cookies?: Record<string, string>;
    storage?: Record<string, string>;
    prefersDark: boolean;
  }) {
    const styles = new Map<string, string>();
    const meta = {
      content: '',
      setAttribute(_: string, v: string) {
        this.content = v;
      },
    };
    const root = {
      dataset: {} as Record<string, string>,
      style: {
        setProperty: (k: string, v: string) => void styles.set(k, v),
        getPropertyValue: (k: string) => styles.get(k) ?? '',
      },
    };
    const doc = Object.assign(fakeDocument(options.cookies), {
      documentElement: root,
      getElementById: (id: string) => (id === 'theme-color-meta' ? meta : null),
    });
    const storage = fakeStorage(options.storage);
    const win = {
      matchMedia: (q: string) => ({ matches: q.includes('dark') && options.prefersDark }),
      localStorage: storage,
      addEventListener: () => {},
    };
    const run = new Function(
      'document',
      'window',
      'localStorage',
      'matchMedia',
      'location',
      'addEventListener',
      'sessionStorage',
      THEME_INLINE_SCRIPT,
    );
    run(doc, win, storage, win.matchMedia, { pathname: '/' }, () => {}, storage);
    return { root, styles, meta, doc };
  }
  it('follows the system preference for the system type', () => {
    expect(runInline({ prefersDark: true }).root.dataset.theme).toBe('dark');
    expect(runInline({ prefersDark: false }).root.dataset.theme).toBe('light');
    expect(runInline({ prefersDark: true, storage: { 'theme-type': 'light' } }).root.dataset.theme).toBe('light');
  });
  it('applies the derived colours of a custom accent and of the wallpaper accent', () => {
    const custom = runInline({
      prefersDark: false,
      storage: { 'theme-color': 'custom', 'theme-color-custom': '2255aa' },
    });
    expect(custom.styles.get('--accent-base')).toBe('#2255aa');
    expect(custom.styles.get('--accent')).toBe(`#${derivePalette('2255aa', 'light').accent}`);
    const wallpaper = runInline({ prefersDark: true, storage: { 'wallpaper-accent': '#33aa66' } });
    expect(wallpaper.root.dataset.themeColor).toBe('wallpaper');
    expect(wallpaper.styles.get('--accent-text')).toBe(`#${derivePalette('33aa66', 'dark').accentText}`);
  });
  it('sets the theme-color meta to the accent only with a coloured side bar', () => {
    const plain = runInline({ prefersDark: false, storage: { 'theme-color': 'blue' } });
    expect(plain.meta.content).toBe('#ffffff');
    const colored = runInline({ prefersDark: false, storage: { 'theme-color': 'blue', 'colored-side-bar': 'true' } });
    expect(colored.meta.content).toBe(`#${derivePalette(PALETTES.blue, 'light').accent}`);
    expect('coloredSideBar' in colored.root.dataset).toBe(true);
  });
});
