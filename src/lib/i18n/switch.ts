import { LOCALE_COOKIE, localeCookieAttributes } from './detect.ts';
import { switchLocalePath, type Locale } from './locales.ts';

const TRANSITION_KEY = 'kiraboshi:transition';

/** Stores the choice in the locale cookie and opens the same route under the target prefix. */
export function switchLanguage(target: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${target}; ${localeCookieAttributes(location.protocol === 'https:')}`;
  try {
    sessionStorage.setItem(TRANSITION_KEY, 'language');
  } catch {
    // Storage may be unavailable (private mode); the switch still works without the animation.
  }
  location.assign(switchLocalePath(location.pathname + location.search + location.hash, target));
}
