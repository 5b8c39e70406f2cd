import { z } from 'zod';

/**
 * Response schema of a route: the envelope with `data` on success, or `data: null` when the
 * answer is a user-facing failure (body code -1) sent with HTTP 200.
 */
export function reply<T extends z.ZodType>(data: T) {
  return { 200: z.object({ code: z.number().int(), msg: z.string(), data: z.union([data, z.null()]) }) };
}

export const replyEmpty = { 200: z.object({ code: z.number().int(), msg: z.string(), data: z.null() }) };

/** Rate-limit settings of one route: at most `max` requests a minute from one address. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });
