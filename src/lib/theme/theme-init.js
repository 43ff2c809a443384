// Runs inline in <head> before first paint, after theme-core.js's functions (inline-script.ts
// joins them): applies the theme (SPEC §4) and tags cross-document view transitions
// (page-jump-in by default, 500 ms for a language switch).
var d = document.documentElement;
// A failure while preparing cookies sends the visitor home, unless already there (SPEC §2).
try { void document.cookie; } catch (e) { if (location.pathname !== '/') location.replace('/'); return; }
var storage = null;
try { storage = localStorage; } catch (e) { /* storage blocked: cookies alone */ }
applyTheme(document, window, reconcileThemeValues(document, storage));
var KEY = 'kiraboshi:transition';
// Settings has its own transition (SPEC §2): it slides in over the page it was opened from, out
// again when left, and its own pages change in place.
function isSettings(url) {
  try { return /^(\/[a-z]{2,3})?\/settings(\/|$)/.test(new URL(url, location.href).pathname); } catch (err) { return false; }
}
function settingsKind(from, to) {
  var a = !!from && isSettings(from), b = !!to && isSettings(to);
  return a && b ? 'settings-switch' : b ? 'settings-in' : a ? 'settings-out' : null;
}
addEventListener('pagereveal', function (e) {
  var kind = null;
  try { kind = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (err) {}
  var from = window.navigation && navigation.activation && navigation.activation.from ? navigation.activation.from.url : document.referrer;
  if (e.viewTransition) e.viewTransition.types.add(kind || settingsKind(from, location.href) || 'page-jump-in');
});
addEventListener('pageswap', function (e) {
  var kind = null;
  try { kind = sessionStorage.getItem(KEY); } catch (err) {}
  var to = e.activation && e.activation.entry ? e.activation.entry.url : null;
  if (e.viewTransition) e.viewTransition.types.add(kind || settingsKind(location.href, to) || 'page-jump-in');
});
