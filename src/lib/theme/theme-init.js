// Runs inline in <head> before first paint: applies the theme (SPEC §4) and tags
// cross-document view transitions (page-jump-in by default, 500 ms for a language switch).
(function () {
  var d = document.documentElement;
  function read(name) {
    var m = document.cookie.match(new RegExp('(?:^|; )' + name + '=([^;]*)'));
    if (m) return decodeURIComponent(m[1]);
    try { return localStorage.getItem(name); } catch (e) { return null; }
  }
  // A failure while preparing cookies sends the visitor home, unless already there (SPEC §2).
  try { void document.cookie; } catch (e) { if (location.pathname !== '/') location.replace('/'); return; }
  var type = read('theme-type') || 'system';
  var dark = type === 'dark' || (type === 'system' && matchMedia('(prefers-color-scheme: dark)').matches);
  d.dataset.theme = dark ? 'dark' : 'light';
  var color = read('theme-color') || 'wallpaper';
  d.dataset.themeColor = color;
  var custom = read('theme-color-custom');
  if (color === 'custom' && custom && /^[0-9a-f]{6}$/i.test(custom)) d.style.setProperty('--accent', '#' + custom);
  if (read('colored-side-bar') === 'true') d.dataset.coloredSideBar = '';
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
})();
