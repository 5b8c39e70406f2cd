import { z } from 'zod';
import { pageQuerySchema, pageSchema } from './envelope.js';
import { generatedImageSchema } from './generate.js';
import { orderEventDataSchema } from './payments.js';

/**
 * Webhooks: events POSTed to a user's HTTPS endpoint, signed per the Standard Webhooks spec
 * (webhook-id, webhook-timestamp, webhook-signature headers); docs/api.md § Webhook.
 */

/** Events an endpoint can subscribe to. */
export const webhookEventTypeSchema = z.enum(
  ['generation.succeeded', 'generation.failed', 'work.published', 'order.paid', 'order.refunded'],
  { error: '事件类型只能是 generation.succeeded、generation.failed、work.published、order.paid 或 order.refunded' },
);
export type WebhookEventType = z.infer<typeof webhookEventTypeSchema>;
export const WEBHOOK_EVENT_TYPES = webhookEventTypeSchema.options;
/** Sent only by 测试发送, to every endpoint whatever it subscribed to. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** Endpoints a user may register. */
export const WEBHOOK_MAX_PER_USER = 5;
export const WEBHOOK_URL_MAX = 500;
export const WEBHOOK_DESCRIPTION_MAX = 100;
/** Secrets are Standard Webhooks secrets: `whsec_` and 32 random bytes in base64. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

const webhookUrlSchema = z
  .string({ error: '请填写接收地址' })
  .trim()
  .min(1, '请填写接收地址')
  .max(WEBHOOK_URL_MAX, `接收地址不能超过 ${WEBHOOK_URL_MAX} 个字符`)
  .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), '接收地址须以 https:// 开头');
const eventsSchema = z
  .array(webhookEventTypeSchema, { error: '请选择要接收的事件' })
  .min(1, '请至少选择一个事件')
  .max(WEBHOOK_EVENT_TYPES.length, '事件重复')
  .refine((events) => new Set(events).size === events.length, '事件重复');
const descriptionSchema = z
  .string()
  .trim()
  .max(WEBHOOK_DESCRIPTION_MAX, `备注不能超过 ${WEBHOOK_DESCRIPTION_MAX} 个字`);

export const webhookEndpointSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(webhookEventTypeSchema),
  /** An admin's endpoint that receives the events of every user (only admins may set it). */
  allUsers: z.boolean(),
  enabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export const webhookEndpointListSchema = z.array(webhookEndpointSchema);

/** POST /api/user/webhooks. */
export const webhookCreateBodySchema = z.object({
  url: webhookUrlSchema,
  description: descriptionSchema.default(''),
  events: eventsSchema,
  allUsers: z.boolean().default(false),
});
export type WebhookCreateBody = z.input<typeof webhookCreateBodySchema>;

/** The answer of a create: the endpoint and its signing secret, shown this once. */
export const webhookCreatedSchema = webhookEndpointSchema.extend({ secret: z.string() });
export type WebhookCreated = z.infer<typeof webhookCreatedSchema>;

/** PUT /api/user/webhooks/:endpointId: the fields given change. */
export const webhookUpdateBodySchema = z.object({
  url: webhookUrlSchema.optional(),
  description: descriptionSchema.optional(),
  events: eventsSchema.optional(),
  allUsers: z.boolean().optional(),
  enabled: z.boolean().optional(),
});
export type WebhookUpdateBody = z.input<typeof webhookUpdateBodySchema>;

export const webhookIdParamsSchema = z.object({
  endpointId: z.string().trim().min(1, '缺少接收地址编号').max(64, '接收地址编号格式不正确'),
});

export const webhookDeliveryStatusSchema = z.enum(['pending', 'succeeded', 'failed']);

/** One try of a delivery: the HTTP status the endpoint answered, or why there was none. */
export const webhookAttemptSchema = z.object({
  attempt: z.number().int(),
  at: z.string(),
  statusCode: z.number().int().nullable(),
  /** Chinese: a timeout, a refused connection, an address not allowed… */
  error: z.string().nullable(),
  /** The first characters of the endpoint's answer. */
  responseExcerpt: z.string().nullable(),
  durationMs: z.number().int(),
});
export type WebhookAttempt = z.infer<typeof webhookAttemptSchema>;

/** 投递记录: one event to one endpoint, with every try. */
export const webhookDeliverySchema = z.object({
  id: z.string(),
  /** The webhook-id header: the same on every try, so the receiver can drop repeats. */
  eventId: z.string(),
  eventType: z.string(),
  status: webhookDeliveryStatusSchema,
  attempts: z.number().int(),
  /** When the next try is due while pending. */
  nextAttemptAt: z.string().nullable(),
  createdAt: z.string(),
  attemptLog: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryPageSchema = pageSchema(webhookDeliverySchema);
export const webhookDeliveryQuerySchema = pageQuerySchema;

/** POST /api/user/webhooks/:endpointId/test (测试发送): the answer of the one try, made at once. */
export const webhookTestResultSchema = z.object({
  deliveryId: z.string(),
  success: z.boolean(),
  ...webhookAttemptSchema.pick({ statusCode: true, error: true, durationMs: true }).shape,
});
export type WebhookTestResult = z.infer<typeof webhookTestResultSchema>;

/** data of generation.succeeded and generation.failed: one step (job) of a generation settled. */
export const generationEventDataSchema = z.object({
  generateId: z.string(),
  jobId: z.string(),
  stepIndex: z.number().int(),
  status: z.enum(['succeeded', 'failed']),
  /** Chinese: why it failed, or null. */
  message: z.string().nullable(),
  /** The images kept (a failed step may have kept some); links are relative to the site and signed. */
  images: z.array(generatedImageSchema),
});
export type GenerationEventData = z.infer<typeof generationEventDataSchema>;

/** data of work.published: a work appeared in 灵感广场; its links are public. */
export const workPublishedEventDataSchema = z.object({
  workId: z.string(),
  url: z.string(),
  thumbUrl: z.string(),
  publishedAt: z.string(),
});
export type WorkPublishedEventData = z.infer<typeof workPublishedEventDataSchema>;

/** The JSON body of every webhook request (Standard Webhooks: type, timestamp, data). */
export const webhookEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.enum(['generation.succeeded', 'generation.failed']),
    timestamp: z.string(),
    userId: z.string(),
    data: generationEventDataSchema,
  }),
  z.object({
    type: z.literal('work.published'),
    timestamp: z.string(),
    userId: z.string(),
    data: workPublishedEventDataSchema,
  }),
  z.object({
    type: z.enum(['order.paid', 'order.refunded']),
    timestamp: z.string(),
    userId: z.string(),
    data: orderEventDataSchema,
  }),
  z.object({
    type: z.literal(WEBHOOK_TEST_EVENT),
    timestamp: z.string(),
    userId: z.string(),
    data: z.object({ endpointId: z.string() }),
  }),
]);
export type WebhookEvent = z.infer<typeof webhookEventSchema>;
