import { persistentMap } from '@nanostores/persistent';

/**
 * App settings of SPEC §3, kept in local storage, plus the data saver. The one store every
 * preference is read from: the shell (links of static cards, dates), the islands (lists, the
 * player) and the Preference page.
 */
export type AppSettings = {
  lastSettingPage: string;
  exitSettingRoute: string;
  isOpenVideoInNewTab: 'true' | 'false';
  akkarinGuestAvatar: 'true' | 'false';
  relativeDate: 'true' | 'false';
  authenticatorType: 'none' | 'totp' | 'email';
  /** No autoplay and no media fetched before the viewer presses play. */
  dataSaver: 'true' | 'false';
};

export const DEFAULT_APP_SETTINGS: AppSettings = {
  lastSettingPage: 'appearance',
  exitSettingRoute: '/',
  isOpenVideoInNewTab: 'false',
  akkarinGuestAvatar: 'false',
  relativeDate: 'true',
  authenticatorType: 'none',
  dataSaver: 'false',
};

export const $appSettings = persistentMap<AppSettings>('app-settings:', DEFAULT_APP_SETTINGS);

/** The yes/no preferences of the Preference page. */
export const PREFERENCE_SWITCHES = ['isOpenVideoInNewTab', 'relativeDate', 'akkarinGuestAvatar', 'dataSaver'] as const;
export type PreferenceSwitch = (typeof PREFERENCE_SWITCHES)[number];

export function preferenceOn(key: PreferenceSwitch, settings: AppSettings = $appSettings.get()): boolean {
  return settings[key] === 'true';
}

/** Data saver: chosen here, or asked for by the browser (Save-Data, e.g. a phone's data saver). */
export function isDataSaverOn(settings: AppSettings = $appSettings.get()): boolean {
  const connection = (globalThis.navigator as (Navigator & { connection?: { saveData?: boolean } }) | undefined)
    ?.connection;
  return settings.dataSaver === 'true' || connection?.saveData === true;
}
