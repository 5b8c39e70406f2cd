/**
 * One notice at a time (spec §8): while a notice is on screen, new ones are refused rather than stacked,
 * so a burst of failing requests shows one message instead of a wall of them.
 */
export interface NoticeGate {
  /** Claims the screen for `durationMs` from `now`; false when a notice is still showing. */
  tryOpen(now: number, durationMs: number): boolean;
  /** Frees the screen early, e.g. when the user closes the notice. */
  release(): void;
}

export function createNoticeGate(): NoticeGate {
  let busyUntil = 0;
  return {
    tryOpen(now, durationMs) {
      if (now < busyUntil) return false;
      busyUntil = now + durationMs;
      return true;
    },
    release() {
      busyUntil = 0;
    },
  };
}
