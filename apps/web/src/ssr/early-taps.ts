/** A tap public/early-taps.js held on the server's HTML of a page before the app had taken it over. */
interface HeldTap {
  control: HTMLElement;
  /** The control's kind: its role as a selector, or its tag name. */
  selector: string;
  /** Its accessible name as the script read it: aria-label, or its text. */
  name: string;
  /** Its place among the page's controls of that kind and name. */
  index: number;
}

declare global {
  var __hfEarlyTaps: { stop(): HeldTap | null } | undefined;
}

/** How long a page rendered afresh may take to show the control that was tapped. */
const FIND_AGAIN_MS = 10_000;

const nameOf = (control: Element) => control.getAttribute('aria-label') || (control.textContent ?? '').trim();

function findAgain(root: HTMLElement, tap: HeldTap): HTMLElement | null {
  const same = [...root.querySelectorAll<HTMLElement>(tap.selector)].filter((other) => nameOf(other) === tap.name);
  return same[tap.index] ?? null;
}

/**
 * Called once the app has rendered: repeats the tap a reader made while only the server's HTML was there, so it is
 * not lost on a slow phone. A hydrated page still holds the tapped control; a page rendered afresh (a signed-in
 * reader's) has the same control again once its data has come.
 */
export function replayEarlyTap(): void {
  const held = globalThis.__hfEarlyTaps;
  // Tells the script, should it still arrive, that the app has the page and nothing is to be held.
  globalThis.__hfEarlyTaps = { stop: () => null };
  const tap = held?.stop() ?? null;
  const root = document.getElementById('root');
  if (!tap || !root) return;
  if (tap.control.isConnected) {
    tap.control.click();
    return;
  }
  const found = findAgain(root, tap);
  if (found) {
    found.click();
    return;
  }
  const watcher = new MutationObserver(() => {
    const control = findAgain(root, tap);
    if (!control) return;
    stop();
    control.click();
  });
  const timer = setTimeout(() => stop(), FIND_AGAIN_MS);
  const stop = () => {
    watcher.disconnect();
    clearTimeout(timer);
  };
  watcher.observe(root, { childList: true, subtree: true });
}
