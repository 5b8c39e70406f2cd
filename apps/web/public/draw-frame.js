// Runs before the server's frame of /draw is painted (a blocking script in its head). The frame is the page of a
// signed-in reader who has chosen no template, laid out for the width the server guessed; for anyone else (a guest,
// a stored template or generation, a window the other side of the narrow breakpoint) it stays hidden, and the app
// renders their own page in its place (apps/web/src/ssr/signed-in-frame.ts).
(() => {
  const html = document.documentElement;
  let stale = true;
  try {
    const draft = JSON.parse(localStorage.getItem('huafang-draw') || 'null')?.state;
    stale =
      !localStorage.getItem('Authorization') ||
      Boolean(draft && (draft.templateId || draft.taskTemplateDetails || draft.generateId)) ||
      html.classList.contains('hf-narrow') !== window.matchMedia('(max-width: 991.98px)').matches;
  } catch {
    // Storage refused or a draft unreadable: the app decides what to show.
  }
  if (stale) html.classList.add('hf-frame-stale');
})();
