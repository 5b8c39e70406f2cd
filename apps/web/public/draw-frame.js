// Runs before the server's frame of /draw is painted (a blocking script in its head). The frame is the page of a
// signed-in reader who has chosen no template, laid out for a phone (below antd's md breakpoint) or a wide desktop
// (from xl, where the result canvas stands beside the form). It stays hidden unless this says it fits: a reader with
// a credential, no stored template or generation, and a window of the width it was drawn for. Anyone else (or a
// browser where this did not run) gets their own page from the app in its place (apps/web/src/ssr/signed-in-frame.ts).
(() => {
  const html = document.documentElement;
  try {
    const token = (localStorage.getItem('Authorization') || '').replace(/^Bearer\s+/i, '').trim();
    const draft = JSON.parse(localStorage.getItem('huafang-draw') || 'null')?.state;
    const chosen = Boolean(draft && (draft.templateId || draft.taskTemplateDetails || draft.generateId));
    const width = html.classList.contains('hf-phone') ? '(max-width: 767.98px)' : '(min-width: 1200px)';
    if (token && !chosen && window.matchMedia(width).matches) html.classList.add('hf-frame-fits');
  } catch {
    // Storage refused or a draft unreadable: the frame stays hidden and the app decides what to show.
  }
})();
