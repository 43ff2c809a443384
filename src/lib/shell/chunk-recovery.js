// After a deploy, a page opened before it asks for script chunks that no longer exist: an island
// stays dead, a dialog never opens. SPEC §8 turns such a failure into one chunk-error event, and
// §9's reload guard answers it with one reload per path per 10 s, which fetches the new build's
// page. A second failure within that time (a build that is itself broken) marks the page stale
// for the shell to prompt "new version: reload" instead, so the page never loops.
// Plain ES5 without imports: it is inlined into <head> (src/lib/theme/inline-script.ts) so that it
// listens before any island starts loading; modules and tests import it like any other file.

export var CHUNK_ERROR_EVENT = 'kiraboshi:chunk-error';
/** Fired (and window.__kiraboshiStaleBuild set) when the guard refused a reload: the shell prompts. */
export var STALE_BUILD_EVENT = 'kiraboshi:stale-build';
export var RELOAD_GUARD_MS = 10000;
export var RELOAD_GUARD_KEY = 'kiraboshi.reloadGuard';

// How Chromium, Firefox and Safari word a module that could not be fetched. Plain "Failed to
// fetch" is an API call that failed, never a chunk.
var MODULE_LOAD_FAILURE =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported/i;

/** @param {unknown} error */
export function isChunkLoadFailure(error) {
  return error instanceof Error && MODULE_LOAD_FAILURE.test(error.message);
}

/**
 * True (and remembered) when `path` has not been reloaded for a chunk in the last RELOAD_GUARD_MS.
 * @param {string} path
 * @param {number} now
 * @param {{ getItem(key: string): string | null; setItem(key: string, value: string): void }} store
 */
export function takeReloadGuard(path, now, store) {
  var guard = null;
  try {
    guard = JSON.parse(store.getItem(RELOAD_GUARD_KEY) || '{}');
  } catch (e) {
    /* unreadable: none */
  }
  var at = guard && typeof guard.at === 'number' ? guard.at : NaN;
  if (guard && guard.path === path && now >= at && now - at < RELOAD_GUARD_MS) return false;
  store.setItem(RELOAD_GUARD_KEY, JSON.stringify({ path: path, at: now }));
  return true;
}

/**
 * Listens for every way a chunk fails (an island's component, Vite's preload of a dynamic import,
 * a bare dynamic import nobody caught), fires the chunk-error event once, and reloads or, inside
 * the guard, marks the page stale.
 * @param {Window} win
 */
export function watchChunkErrors(win) {
  var answered = false;
  /** @param {string | undefined} url */
  function report(url) {
    win.dispatchEvent(new CustomEvent(CHUNK_ERROR_EVENT, { detail: { url: url } }));
  }
  win.addEventListener('astro:hydration-error', function (event) {
    var detail = /** @type {CustomEvent} */ (event).detail || {};
    if (!isChunkLoadFailure(detail.error)) return;
    event.preventDefault(); // handled here: Astro need not log it
    report(detail.componentUrl);
  });
  win.addEventListener('vite:preloadError', function (event) {
    var payload = /** @type {Event & { payload?: Error }} */ (event).payload;
    report(payload && payload.message);
  });
  win.addEventListener('unhandledrejection', function (event) {
    if (!isChunkLoadFailure(event.reason)) return;
    event.preventDefault();
    report(undefined);
  });
  win.addEventListener(CHUNK_ERROR_EVENT, function () {
    if (answered) return;
    answered = true;
    var mayReload = false;
    try {
      mayReload = takeReloadGuard(win.location.pathname + win.location.search, Date.now(), win.sessionStorage);
    } catch (e) {
      /* no storage: never reload blindly */
    }
    if (mayReload) {
      win.location.reload();
      return;
    }
    /** @type {any} */ (win).__kiraboshiStaleBuild = true;
    win.dispatchEvent(new CustomEvent(STALE_BUILD_EVENT));
  });
}
