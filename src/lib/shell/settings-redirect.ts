import { $appSettings } from '../stores/app-settings.ts';
import { DEFAULT_SETTINGS_PAGE, SETTINGS_PAGES } from '../navigation/routes.ts';
import { splitLocale, localizePath } from '../i18n/locales.ts';

/** /settings: open the last visited settings page, or the default one. */
export function redirectToLastSettingsPage(): void {
  const { locale } = splitLocale(location.pathname);
  const last = $appSettings.get().lastSettingPage;
  const page = (SETTINGS_PAGES as readonly string[]).includes(last) ? last : DEFAULT_SETTINGS_PAGE;
  location.replace(localizePath(`/settings/${page}`, locale));
}

/** /settings/exit: back to the page settings was opened from, in the current language. */
export function exitSettings(): void {
  const { locale } = splitLocale(location.pathname);
  const exit = $appSettings.get().exitSettingRoute || '/';
  // Only an in-site route is stored; anything else falls back to home.
  const route = exit.startsWith('/') && !exit.startsWith('//') ? exit : '/';
  location.replace(localizePath(route, locale));
}
