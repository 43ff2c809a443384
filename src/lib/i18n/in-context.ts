/**
 * The in-context translation mode (SPEC §4): the `ii` locale shows message keys, and the
 * translation service's script, loaded only in that mode, lets translators edit them in place.
 */
export const IN_CONTEXT_LOCALE = 'ii';
/** Entering the mode: the logo shows and the page reloads into it after this long. */
export const IN_CONTEXT_RELOAD_MS = 250;
/** Where the translator goes to leave the mode. */
export const IN_CONTEXT_ESCAPE = '/settings/language';

type Jipt = Array<[string, unknown]>;

/**
 * Turning the mode on from a page without the script: shows the logo, hides the root and loads
 * the `ii` address after 250 ms (the script then starts on that page).
 */
export function enterInContextMode(target: string, logoUrl = '/favicon.svg'): void {
  const logo = document.createElement('div');
  logo.className = 'in-context-logo';
  logo.dataset.inContextLogo = '';
  logo.setAttribute('role', 'status');
  const image = document.createElement('img');
  image.src = logoUrl;
  image.alt = '';
  image.width = 96;
  image.height = 96;
  logo.append(image);
  document.body.append(logo);
  document.getElementById('root')?.setAttribute('hidden', '');
  setTimeout(() => location.assign(target), IN_CONTEXT_RELOAD_MS);
}

/** On an `ii` page: starts the translation script (once), with the escape to the language settings. */
export function startInContextScript(scriptUrl: string): void {
  if (!scriptUrl || document.querySelector('script[data-in-context-script]')) return;
  const w = window as Window & { _jipt?: Jipt };
  w._jipt = [
    ['project', 'kiraboshi'],
    ['escape', () => location.assign(IN_CONTEXT_ESCAPE)],
  ];
  const script = document.createElement('script');
  script.src = scriptUrl;
  script.async = true;
  script.dataset.inContextScript = '';
  script.addEventListener('error', () => console.warn('the in-context translation script did not load', scriptUrl));
  document.head.append(script);
}
