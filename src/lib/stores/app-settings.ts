import { persistentMap } from '@nanostores/persistent';

/** App settings of SPEC §3, kept in local storage. */
export type AppSettings = {
  lastSettingPage: string;
  exitSettingRoute: string;
  isOpenVideoInNewTab: 'true' | 'false';
  akkarinGuestAvatar: 'true' | 'false';
  relativeDate: 'true' | 'false';
  authenticatorType: 'none' | 'totp' | 'email';
};

export const $appSettings = persistentMap<AppSettings>('app-settings:', {
  lastSettingPage: 'appearance',
  exitSettingRoute: '/',
  isOpenVideoInNewTab: 'false',
  akkarinGuestAvatar: 'false',
  relativeDate: 'true',
  authenticatorType: 'none',
});
