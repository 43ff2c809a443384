import { LOCALE_COOKIE, localeCookieAttributes } from './detect.ts';
import { switchLocalePath, type Locale } from './locales.ts';
import { enterInContextMode, IN_CONTEXT_LOCALE } from './in-context.ts';

const TRANSITION_KEY = 'kiraboshi:transition';

/** Stores the choice in the locale cookie and opens the same route under the target prefix. */
export function switchLanguage(target: Locale): void {
  document.cookie = `${LOCALE_COOKIE}=${target}; ${localeCookieAttributes(location.protocol === 'https:')}`;
  try {
    sessionStorage.setItem(TRANSITION_KEY, 'language');
  } catch {
    // Storage may be unavailable (private mode); the switch still works without the animation.
  }
  const next = switchLocalePath(location.pathname + location.search + location.hash, target);
  // This page has no translation script: the mode is entered by a reload into the ii address.
  if (target === IN_CONTEXT_LOCALE) enterInContextMode(next);
  else location.assign(next);
}
