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
addEventListener('pagereveal', function (e) {
  var kind = null;
  try { kind = sessionStorage.getItem(KEY); sessionStorage.removeItem(KEY); } catch (err) {}
  if (e.viewTransition) e.viewTransition.types.add(kind || 'page-jump-in');
});
addEventListener('pageswap', function (e) {
  var kind = null;
  try { kind = sessionStorage.getItem(KEY); } catch (err) {}
  if (e.viewTransition) e.viewTransition.types.add(kind || 'page-jump-in');
});
