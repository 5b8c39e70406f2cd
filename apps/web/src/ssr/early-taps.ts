declare global {
  /** Set by public/early-taps.js: stops holding taps and gives the control last tapped, if any. */
  var __hfEarlyTaps: { stop(): HTMLElement | null } | undefined;
}

/** Stops holding taps; tells the script, should it still arrive, that the app has the page. */
function stopHolding(): HTMLElement | null {
  const held = globalThis.__hfEarlyTaps;
  globalThis.__hfEarlyTaps = { stop: () => null };
  return held?.stop() ?? null;
}

/**
 * The page the server rendered is rendered afresh (a signed-in reader's): a control tapped on the server's HTML is
 * gone, and guessing its twin in a list that may differ could press the wrong one, so nothing is held from now on.
 */
export function dropEarlyTaps(): void {
  stopHolding();
}

/**
 * Called once the app has hydrated the server's HTML: repeats the tap a reader made while only that HTML was there
 * (on a slow phone, seconds), on the same control, now live.
 */
export function replayEarlyTap(): void {
  const control = stopHolding();
  if (control?.isConnected) control.click();
}
