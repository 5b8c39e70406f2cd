import { z } from 'zod';

/** Body codes of the response envelope (spec §8). */
export const BizCode = {
  OK: 0,
  FAIL: -1,
  UNAUTHORIZED: 401,
  UNREGISTERED: 405,
  NOT_FOUND: 404,
  QUOTA_EXHAUSTED: 10004,
} as const;

/**
 * The `{code, msg, data}` envelope of every /api answer: `data` on success, `null` when the answer is a
 * user-facing failure (body code -1) or carries nothing.
 */
export function envelopeSchema<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data: z.union([data, z.null()]) });
}

export const emptyEnvelopeSchema = z.object({ code: z.number().int(), msg: z.string(), data: z.null() });

export const pageQuerySchema = z.object({
  current: z.coerce.number().int().min(1, '页码必须大于 0').default(1),
  pageSize: z.coerce.number().int().min(1, '每页条数必须大于 0').max(100, '每页条数不能超过 100').default(10),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** `current` of a paged list: a whole number from 1, page 1 when absent. */
export const pageNumberSchema = z.coerce.number().int('页码须为整数').min(1, '页码必须大于 0').default(1);

/** `pageSize` of a paged list: a whole number from 1 to `max`, `fallback` when absent. */
export const pageSizeSchema = (fallback: number, max = 100) =>
  z.coerce
    .number()
    .int('每页条数须为整数')
    .min(1, '每页条数必须大于 0')
    .max(max, `每页条数不能超过 ${max}`)
    .default(fallback);

/** The paging fields of a list query, to spread into its z.object. */
export const pagingFields = (fallback: number, max = 100) => ({
  current: pageNumberSchema,
  pageSize: pageSizeSchema(fallback, max),
});

export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    current: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
  });
}
export type Page<T> = { list: T[]; current: number; pageSize: number; total: number };

const checkStatusSchema = z.enum(['ok', 'down']);

/**
 * GET /api/health: anyone learns ok, degraded or down (HTTP 503 when down only); an admin's Bearer token also
 * shows the database kind, which check failed and, in scale-out mode, the BullMQ queue. `degraded`: Redis is away
 * (scale-out), so generation answers 503 while the rest of the site serves; every API process shares that Redis,
 * so a load balancer keeps the process in rotation (docs/operations.md § 健康检查).
 */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  db: z.enum(['sqlite', 'postgres']).optional(),
  checks: z
    .object({ database: checkStatusSchema, storage: checkStatusSchema, redis: checkStatusSchema.optional() })
    .optional(),
  /** Scale-out, for admins: BullMQ's jobs by state and the workers connected (null while Redis is away). */
  queue: z
    .object({
      waiting: z.number().int(),
      active: z.number().int(),
      delayed: z.number().int(),
      failed: z.number().int(),
      workers: z.number().int(),
    })
    .nullable()
    .optional(),
});
export type Health = z.infer<typeof healthSchema>;
