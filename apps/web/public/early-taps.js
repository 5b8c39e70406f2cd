// Loaded by the pages the server rendered (src/ssr/entry-server.tsx). Until the app has taken such a page over, its
// buttons do nothing: a tap on one is held here and repeated by the app once it has hydrated the page
// (src/ssr/early-taps.ts). Links are left alone: they work without the app.
(() => {
  // Arrived after the app had already taken the page over (its code was cached, this file was revalidated).
  if (globalThis.__hfEarlyTaps) return;
  const CONTROL = 'button, [role="button"], [role="tab"], [role="checkbox"], [role="switch"], [role="menuitem"]';
  let held = null;
  const hold = (event) => {
    const control = event.target instanceof Element ? event.target.closest(CONTROL) : null;
    if (!control || !document.getElementById('root')?.contains(control)) return;
    event.preventDefault();
    event.stopPropagation();
    held = control;
  };
  addEventListener('click', hold, true);
  globalThis.__hfEarlyTaps = {
    stop() {
      removeEventListener('click', hold, true);
      return held;
    },
  };
})();
