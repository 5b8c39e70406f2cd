import { Writable } from 'node:stream';
import { pino } from 'pino';

/** What the tests of the SMS and moderation clients share: a log they read, and the failure a call ended with. */

/** A logger whose lines the test reads, as the server's would be. */
export function capturedLog() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      cb();
    },
  });
  return { log: pino({ level: 'info' }, stream), lines };
}

/** A call's result, or the `failure` it ended with when it threw `Failed` (SmsSendError, ModerationUnavailableError). */
export async function resultOrFailure<T, F>(
  call: Promise<T>,
  Failed: abstract new (...args: never[]) => { failure: F },
): Promise<T | F> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof Failed) return err.failure;
    throw err;
  }
}
