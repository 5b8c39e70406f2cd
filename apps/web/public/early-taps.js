// Loaded by the pages the server rendered (src/ssr/entry-server.tsx). Until the app has taken such a page over, its
// buttons do nothing: a tap on one is held here, described, and repeated by the app once it runs
// (src/ssr/early-taps.ts). Links are left alone: they work without the app.
(() => {
  // Arrived after the app had already taken the page over (its code was cached, this file was revalidated).
  if (globalThis.__hfEarlyTaps) return;
  const CONTROL = 'button, [role="button"], [role="tab"], [role="checkbox"], [role="switch"], [role="menuitem"]';
  const nameOf = (control) => control.getAttribute('aria-label') || control.textContent.trim();
  let held = null;
  const hold = (event) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROL) : null;
    const root = document.getElementById('root');
    if (!control || !root?.contains(control)) return;
    event.preventDefault();
    event.stopPropagation();
    const name = nameOf(control);
    const role = control.getAttribute('role');
    const selector = role ? `[role="${role}"]` : control.tagName.toLowerCase();
    // Which control of that kind and name it was, within its card (data-tap-scope: a work's id) or the page, to find
    // it again in a page rendered afresh.
    const scope = control.closest('[data-tap-scope]');
    const same = [...(scope ?? root).querySelectorAll(selector)].filter((other) => nameOf(other) === name);
    held = {
      control,
      scope: scope ? scope.getAttribute('data-tap-scope') : null,
      selector,
      name,
      index: same.indexOf(control),
      count: same.length,
    };
  };
  addEventListener('click', hold, true);
  globalThis.__hfEarlyTaps = {
    stop() {
      removeEventListener('click', hold, true);
      return held;
    },
  };
})();
