// The theme of SPEC §3-§4 in one plain-JavaScript file: values, cookie/storage rules, palettes
// and the contrast-safe colours derived from an accent. Written in ES5 without imports because
// it is also inlined (exports stripped) into <head> as the first-paint script
// (src/lib/theme/inline-script.ts); modules import it like any other file.

/** Theme values in cookies and local storage, with their defaults (SPEC §3). */
export var THEME_KEYS = {
  type: 'theme-type',
  color: 'theme-color',
  custom: 'theme-color-custom',
  coloredSideBar: 'colored-side-bar',
  allowSync: 'is-allow-sync-theme-settings',
  offline: 'is-offline-settings',
};
export var THEME_DEFAULTS = {
  'theme-type': 'system',
  'theme-color': 'wallpaper',
  'theme-color-custom': 'f06e8e',
  'colored-side-bar': 'false',
  'is-allow-sync-theme-settings': 'true',
};
/** Written by the wallpaper manager: the selected wallpaper's dominant colour (absent when none). */
export var WALLPAPER_ACCENT_KEY = 'wallpaper-accent';
export var DEFAULT_ACCENT = 'f06e8e';
/** This device's "reduce motion" choice (local storage; the system's preference applies anyway). */
export var REDUCED_MOTION_KEY = 'reduced-motion';
export var THEME_TYPES = ['system', 'light', 'dark'];
/** The fixed palettes' base colours; custom and wallpaper are resolved at run time. */
export var PALETTES = {
  pink: 'f06e8e',
  blue: '3d8af7',
  purple: '9c6ade',
  yellow: 'f2b705',
  green: '2fb36d',
  cyan: '14b3c7',
  red: 'e5484d',
};
export var PALETTE_NAMES = ['pink', 'blue', 'purple', 'yellow', 'green', 'cyan', 'red', 'custom', 'wallpaper'];
/** Page background, surface and raised surface of each scheme (the values of src/styles/global.css). */
export var SCHEME_BACKGROUNDS = {
  light: ['fbf7f9', 'ffffff', 'f4eef1'],
  dark: ['17121a', '211a25', '2b2230'],
};
/** Text on an accent fill: whichever of these two reaches AA. */
export var ON_ACCENT_LIGHT = 'ffffff';
export var ON_ACCENT_DARK = '1c1016';
export var AA_TEXT = 4.5;
export var AA_CONTROL = 3;
/** Share of the accent in the soft tint behind chips and active items (global.css --accent-soft). */
export var SOFT_SHARE = 0.14;

/** 'abc', '#aabbcc' or 'AABBCC' → 'aabbcc'; anything else → null. */
export function normalizeHex(value) {
  if (typeof value !== 'string') return null;
  var hex = value.trim().replace(/^#/, '').toLowerCase();
  if (/^[0-9a-f]{3}$/.test(hex)) hex = hex[0] + hex[0] + hex[1] + hex[1] + hex[2] + hex[2];
  return /^[0-9a-f]{6}$/.test(hex) ? hex : null;
}

function channels(hex) {
  return [0, 2, 4].map(function (i) { return parseInt(hex.slice(i, i + 2), 16); });
}
function toHex(rgb) {
  return rgb.map(function (c) { var s = Math.round(Math.max(0, Math.min(255, c))).toString(16); return s.length < 2 ? '0' + s : s; }).join('');
}
/** WCAG 2 relative luminance of a 'rrggbb' colour. */
export function luminance(hex) {
  var lin = channels(hex).map(function (c) { c /= 255; return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); });
  return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
}
/** WCAG 2 contrast ratio of two 'rrggbb' colours (1 to 21). */
export function contrast(a, b) {
  var la = luminance(a), lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}
/** `share` of `top` over `base`, as CSS color-mix(in srgb) does. */
export function mix(top, base, share) {
  var t = channels(top), b = channels(base);
  return toHex(t.map(function (c, i) { return c * share + b[i] * (1 - share); }));
}
function worstContrast(hex, backgrounds) {
  return Math.min.apply(null, backgrounds.map(function (bg) { return contrast(hex, bg); }));
}

/**
 * The colours a page uses for one accent in one scheme, each meeting WCAG AA:
 * - accent: fills and control marks (switches, focus rings, buttons), ≥ 3:1 on every background;
 * - onAccent: text on that fill (white or near-black, whichever reaches 4.5:1 first);
 * - accentText: accent-coloured text, ≥ 4.5:1 on every background and on the soft tint.
 * The base colour is moved towards black (light) or white (dark) only as far as needed.
 */
export function derivePalette(baseHex, scheme) {
  var base = normalizeHex(baseHex) || DEFAULT_ACCENT;
  var dark = scheme === 'dark';
  var toward = dark ? 'ffffff' : '000000';
  var backgrounds = SCHEME_BACKGROUNDS[dark ? 'dark' : 'light'];
  var accent = base, onAccent = ON_ACCENT_DARK;
  for (var step = 0; step <= 100; step++) {
    accent = mix(toward, base, step / 100);
    if (worstContrast(accent, backgrounds) < AA_CONTROL) continue;
    if (contrast(accent, ON_ACCENT_LIGHT) >= AA_TEXT) { onAccent = ON_ACCENT_LIGHT; break; }
    if (contrast(accent, ON_ACCENT_DARK) >= AA_TEXT) { onAccent = ON_ACCENT_DARK; break; }
  }
  var textBackgrounds = backgrounds.concat(backgrounds.map(function (bg) { return mix(accent, bg, SOFT_SHARE); }));
  var accentText = base;
  for (var s = 0; s <= 100; s++) {
    accentText = mix(toward, base, s / 100);
    if (worstContrast(accentText, textBackgrounds) >= AA_TEXT) break;
  }
  return { base: base, accent: accent, onAccent: onAccent, accentText: accentText };
}

/** The base colour of a palette: custom from its hex, wallpaper from the wallpaper's colour. */
export function paletteBase(color, customHex, wallpaperHex) {
  if (color === 'custom') return normalizeHex(customHex) || DEFAULT_ACCENT;
  if (color === 'wallpaper') return normalizeHex(wallpaperHex) || DEFAULT_ACCENT;
  return PALETTES[color] || DEFAULT_ACCENT;
}

// ---- cookies and storage ----
function cookieJar(doc) {
  var jar = {};
  String(doc.cookie || '').split('; ').forEach(function (pair) {
    var at = pair.indexOf('=');
    if (at > 0) { try { jar[pair.slice(0, at)] = decodeURIComponent(pair.slice(at + 1)); } catch (e) { /* foreign cookie */ } }
  });
  return jar;
}
/** Theme cookies last until the year 9999, SameSite strict (SPEC §9). */
export function writeThemeCookie(doc, name, value) {
  doc.cookie = name + '=' + encodeURIComponent(value) + '; expires=Fri, 31 Dec 9999 23:59:59 GMT; path=/; SameSite=Strict';
}
function storageGet(storage, name) { try { return storage ? storage.getItem(name) : null; } catch (e) { return null; } }
function storageSet(storage, name, value) { try { if (storage) storage.setItem(name, value); } catch (e) { /* private mode */ } }

var SYNCED_KEYS = ['theme-type', 'theme-color', 'theme-color-custom', 'colored-side-bar', 'is-allow-sync-theme-settings', 'is-offline-settings'];

/**
 * SPEC §4: when is-offline-settings is absent or true, local storage is the truth and is copied
 * to the cookies; otherwise (the server's copy was written to the cookies by a sync) the cookies
 * are copied into storage. Returns the resulting values, defaults filled in.
 */
export function reconcileThemeValues(doc, storage) {
  var jar = cookieJar(doc);
  var offlineFlag = storageGet(storage, THEME_KEYS.offline);
  if (offlineFlag === null) offlineFlag = jar[THEME_KEYS.offline] === undefined ? null : jar[THEME_KEYS.offline];
  var storageWins = offlineFlag === null || offlineFlag === 'true';
  var values = /** @type {Record<string, string>} */ ({});
  SYNCED_KEYS.forEach(function (name) {
    var fromStorage = storageGet(storage, name);
    var fromCookie = jar[name] === undefined ? null : jar[name];
    var value = storageWins ? (fromStorage !== null ? fromStorage : fromCookie) : (fromCookie !== null ? fromCookie : fromStorage);
    if (value !== null) {
      if (storageWins && value !== fromCookie) writeThemeCookie(doc, name, value);
      if (!storageWins && value !== fromStorage) storageSet(storage, name, value);
    }
    values[name] = value !== null ? value : THEME_DEFAULTS[name];
  });
  return values;
}

/** Writes one theme value to both places (the Appearance page and the server sync use it). */
export function storeThemeValue(doc, storage, name, value) {
  writeThemeCookie(doc, name, value);
  storageSet(storage, name, value);
}

/** Applies theme values to the document: scheme, accent colours, side bar, theme-color meta. */
export function applyTheme(doc, win, values) {
  var root = doc.documentElement;
  var type = values['theme-type'];
  var dark = type === 'dark' || (type !== 'light' && !!win.matchMedia && win.matchMedia('(prefers-color-scheme: dark)').matches);
  var scheme = dark ? 'dark' : 'light';
  var color = PALETTE_NAMES.indexOf(values['theme-color']) >= 0 ? values['theme-color'] : 'wallpaper';
  var wallpaper = root.style.getPropertyValue('--wallpaper-accent') || storageGet(win.localStorage, WALLPAPER_ACCENT_KEY);
  var colours = derivePalette(paletteBase(color, values['theme-color-custom'], wallpaper), scheme);
  root.dataset.theme = scheme;
  root.dataset.themeColor = color;
  root.style.setProperty('--accent-base', '#' + colours.base);
  root.style.setProperty('--accent', '#' + colours.accent);
  root.style.setProperty('--on-accent', '#' + colours.onAccent);
  root.style.setProperty('--accent-text', '#' + colours.accentText);
  if (storageGet(win.localStorage, REDUCED_MOTION_KEY) === 'true') root.dataset.reducedMotion = ''; else delete root.dataset.reducedMotion;
  var colored = values['colored-side-bar'] === 'true';
  if (colored) root.dataset.coloredSideBar = ''; else delete root.dataset.coloredSideBar;
  // The browser's own bars take the accent with a coloured side bar, the page colour otherwise.
  var meta = doc.getElementById('theme-color-meta');
  if (meta) meta.setAttribute('content', colored ? '#' + colours.accent : '#' + SCHEME_BACKGROUNDS[scheme][1]);
  return { scheme: scheme, color: color, colours: colours };
}
