import { createHash, randomBytes, randomInt } from 'node:crypto';

/**
 * Opaque, unguessable ids (ARCHITECTURE § Contracts): never sequential. Never led by - or _, so an id reads as
 * itself in a CSV export (where a leading - is defused as a formula) and on a command line.
 */
export function newId(): string {
  for (;;) {
    const id = randomBytes(12).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}

export const newSecret = () => randomBytes(32).toString('base64url');

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const sixDigitCode = () => randomInt(0, 1_000_000).toString().padStart(6, '0');

export const nowIso = () => new Date().toISOString();

export const isoIn = (ms: number, from = Date.now()) => new Date(from + ms).toISOString();

/**
 * A clock of ISO stamps that never repeats nor goes back within this process: lists ordered by time, then by a
 * random id, keep rows made in one millisecond in the order they were made.
 */
export function orderedStamps(): () => string {
  let last = 0;
  return () => {
    last = Math.max(Date.now(), last + 1);
    return new Date(last).toISOString();
  };
}
