import { emptyEnvelopeSchema, envelopeSchema } from '@huafang/contracts';
import { z } from 'zod';

/** Response schema of a route: the shared envelope, with HTTP 200 answers validated and stripped by it. */
export const reply = <T extends z.ZodType>(data: T) => ({ 200: envelopeSchema(data) });

export const replyEmpty = { 200: emptyEnvelopeSchema };

/** The `:id` of a route's path: a row's opaque id. */
export const idParams = z.object({ id: z.string().max(64) });

/** Rate-limit settings of one route: at most `max` requests a minute from one address. */
export const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });
