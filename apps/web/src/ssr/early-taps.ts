/** A tap public/early-taps.js held on the server's HTML of a page before the app had taken it over. */
interface HeldTap {
  control: HTMLElement;
  /** The `data-tap-scope` of the card it is in (a work's id), or null for the page. */
  scope: string | null;
  /** The control's kind: its role as a selector, or its tag name. */
  selector: string;
  /** Its accessible name as the script read it: aria-label, or its text. */
  name: string;
  /** Its place among the controls of that kind and name in its card or the page, and how many there were. */
  index: number;
  count: number;
}

declare global {
  var __hfEarlyTaps: { stop(): HeldTap | null } | undefined;
}

/** How long a page rendered afresh may take to show the control that was tapped. */
const FIND_AGAIN_MS = 10_000;

const nameOf = (control: Element) => control.getAttribute('aria-label') || (control.textContent ?? '').trim();

/**
 * The same control in a page rendered afresh: in the same card, of the same kind and name (a like the reader had
 * given reads 取消点赞 and is not pressed again), and only where as many such controls are there as before, so
 * that a list that changed meanwhile is not guessed at.
 */
function findAgain(root: HTMLElement, tap: HeldTap): HTMLElement | null {
  const scope = tap.scope === null ? root : root.querySelector(`[data-tap-scope="${CSS.escape(tap.scope)}"]`);
  if (!scope) return null;
  const same = [...scope.querySelectorAll<HTMLElement>(tap.selector)].filter((other) => nameOf(other) === tap.name);
  return same.length === tap.count ? (same[tap.index] ?? null) : null;
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
  // Waits for the page's data; given up when the reader does something else or leaves the page meanwhile.
  const page = window.location.href;
  const watcher = new MutationObserver(() => {
    if (window.location.href !== page) {
      stop();
      return;
    }
    const control = findAgain(root, tap);
    if (!control) return;
    stop();
    control.click();
  });
  const timer = setTimeout(() => stop(), FIND_AGAIN_MS);
  const stop = () => {
    watcher.disconnect();
    clearTimeout(timer);
    removeEventListener('pointerdown', stop, true);
    removeEventListener('keydown', stop, true);
  };
  addEventListener('pointerdown', stop, true);
  addEventListener('keydown', stop, true);
  watcher.observe(root, { childList: true, subtree: true });
}
