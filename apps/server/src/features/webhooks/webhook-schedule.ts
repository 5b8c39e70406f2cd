/** Each retry waits this many times longer than the one before: 10 s, 1 min, 6 min, 36 min, 3.6 h from 10 s. */
const GROWTH = 6;

/**
 * When a delivery that has failed `attempts` tries is tried again: `baseMs` after the first failure, then growing
 * by GROWTH; null once `maxAttempts` tries are spent (the delivery has failed for good).
 */
export function nextAttemptDelayMs(attempts: number, maxAttempts: number, baseMs: number): number | null {
  if (attempts >= maxAttempts) return null;
  return Math.round(baseMs * GROWTH ** (attempts - 1));
}
