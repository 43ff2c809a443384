/**
 * The theme after first paint: changes from the Appearance page, the sync with the server copy
 * of a member's settings (SPEC §4 "Theme sync"), and re-applying when the system scheme or the
 * wallpaper's colour changes. The rules themselves live in theme-core.js (shared with the
 * inline first-paint script).
 */
import { atom } from 'nanostores';
import {
  applyTheme,
  reconcileThemeValues,
  REDUCED_MOTION_KEY,
  storeThemeValue,
  THEME_KEYS,
  WALLPAPER_ACCENT_KEY,
} from './theme-core.js';
import { getUserSettings, updateUserSettings } from '../api/calls/user.ts';
import type { UserSettings } from '../api/contracts/account.ts';
import { uidCookie } from '../stores/self-user.ts';

export type ThemeValues = Record<string, string>;
type SyncedSetting = 'themeType' | 'themeColor' | 'themeColorCustom' | 'coloredSideBar';

/** The server copy's field of each synced theme value. */
export const SERVER_FIELD_OF: Record<string, SyncedSetting> = {
  [THEME_KEYS.type]: 'themeType',
  [THEME_KEYS.color]: 'themeColor',
  [THEME_KEYS.custom]: 'themeColorCustom',
  [THEME_KEYS.coloredSideBar]: 'coloredSideBar',
};

const safeStorage = (): Storage | null => {
  try {
    return localStorage;
  } catch {
    return null;
  }
};

/** The theme values in effect (cookies and storage reconciled, defaults filled in). */
export const $themeValues = atom<ThemeValues>({});

export function refreshTheme(): ThemeValues {
  const values = reconcileThemeValues(document, safeStorage()) as ThemeValues;
  applyTheme(document, window, values);
  $themeValues.set(values);
  return values;
}

const syncAllowed = (values: ThemeValues) => values[THEME_KEYS.allowSync] === 'true' && uidCookie() !== null;

/** The server copy's value of a synced key, as the cookie holds it. */
export function cookieValueOf(settings: Pick<UserSettings, SyncedSetting>, key: string): string {
  return String(settings[SERVER_FIELD_OF[key]!]);
}

function serverChange(key: string, value: string): Partial<UserSettings> {
  const field = SERVER_FIELD_OF[key]!;
  return { [field]: field === 'coloredSideBar' ? value === 'true' : value } as Partial<UserSettings>;
}

/**
 * One change from the Appearance page: written to cookie and storage, applied at once and, for
 * a member who allows sync, sent to the server. Without sync the device's own settings win
 * (is-offline-settings true). Resolves false when the server refused or could not be reached.
 */
export async function setThemeValue(key: string, value: string): Promise<boolean> {
  storeThemeValue(document, safeStorage(), key, value);
  const values = refreshTheme();
  if (!(key in SERVER_FIELD_OF)) return true;
  if (!syncAllowed(values)) {
    storeThemeValue(document, safeStorage(), THEME_KEYS.offline, 'true');
    return true;
  }
  try {
    await updateUserSettings(serverChange(key, value));
    return true;
  } catch {
    return false;
  }
}

/**
 * Turning sync on sends this device's settings to the server (the person just chose them);
 * turning it off keeps them on this device only.
 */
export async function setSyncAllowed(allowed: boolean): Promise<boolean> {
  storeThemeValue(document, safeStorage(), THEME_KEYS.allowSync, String(allowed));
  storeThemeValue(document, safeStorage(), THEME_KEYS.offline, 'true');
  const values = refreshTheme();
  if (!allowed || !syncAllowed(values)) return true;
  try {
    for (const key of Object.keys(SERVER_FIELD_OF)) await updateUserSettings(serverChange(key, values[key]!));
    storeThemeValue(document, safeStorage(), THEME_KEYS.offline, 'false');
    return true;
  } catch {
    return false;
  }
}

/**
 * SPEC §4: with the sync flag on and a session, the server's settings are written to the cookies
 * (and storage) and is-offline-settings becomes false, so the next first paint uses them;
 * otherwise the flag keeps its default and this device's settings are the offline ones.
 */
export async function syncThemeFromServer(): Promise<void> {
  const values = refreshTheme();
  const storage = safeStorage();
  if (!syncAllowed(values)) {
    storeThemeValue(document, storage, THEME_KEYS.allowSync, values[THEME_KEYS.allowSync] ?? 'true');
    storeThemeValue(document, storage, THEME_KEYS.offline, 'true');
    return;
  }
  let settings: UserSettings;
  try {
    ({ userSettings: settings } = await getUserSettings());
  } catch {
    return; // offline or logged out: this device's values stay
  }
  for (const key of Object.keys(SERVER_FIELD_OF)) storeThemeValue(document, storage, key, cookieValueOf(settings, key));
  storeThemeValue(document, storage, THEME_KEYS.offline, 'false');
  refreshTheme();
}

/** This device's reduce-motion choice: no animations or transitions, whatever the system says. */
export function setReducedMotion(on: boolean): void {
  try {
    if (on) localStorage.setItem(REDUCED_MOTION_KEY, 'true');
    else localStorage.removeItem(REDUCED_MOTION_KEY);
  } catch {
    /* storage blocked */
  }
  refreshTheme();
}

/** Re-applies when the system scheme, the wallpaper's colour or another tab's choice changes. */
export function watchThemeInputs(): void {
  matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => refreshTheme());
  let wallpaper = document.documentElement.style.getPropertyValue('--wallpaper-accent');
  new MutationObserver(() => {
    const now = document.documentElement.style.getPropertyValue('--wallpaper-accent');
    if (now === wallpaper) return;
    wallpaper = now;
    refreshTheme();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['style'] });
  window.addEventListener('storage', (event: StorageEvent) => {
    if (
      event.key === null ||
      event.key === WALLPAPER_ACCENT_KEY ||
      event.key === REDUCED_MOTION_KEY ||
      event.key.startsWith('theme-') ||
      event.key === THEME_KEYS.coloredSideBar
    )
      refreshTheme();
  });
}
