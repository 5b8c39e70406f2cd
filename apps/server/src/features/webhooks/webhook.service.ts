import { randomBytes } from 'node:crypto';
import {
  type Page,
  WEBHOOK_MAX_PER_USER,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_TEST_EVENT,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookTestResult,
  type webhookCreateBodySchema,
  webhookDeliveryStatusSchema,
  webhookEventTypeSchema,
  type webhookUpdateBodySchema,
} from '@huafang/contracts';
import { z } from 'zod';
import type { AuthUser } from '../../platform/auth/auth.plugin.js';
import { fail, forbidden, notFound } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { WebhookEndpointRow, WebhookRepository } from './webhook.repository.js';
import type { WebhookAddressRules } from './webhook-address.js';
import { eventBody, newEventId } from './webhook-events.js';
import type { WebhookSender } from './webhook-sender.js';

const ALL_USERS_ADMIN_ONLY = '只有管理员可以接收所有用户的事件';

/** A Standard Webhooks secret: whsec_ and the base64 of 32 random bytes. */
const newSigningSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;

function view(row: WebhookEndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: z.array(webhookEventTypeSchema).parse(JSON.parse(row.events)),
    allUsers: row.all_users === 1,
    enabled: row.enabled === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A user's (or admin's) webhook endpoints: register, change, remove, 测试发送 and the delivery log. */
export class WebhookService {
  constructor(
    private readonly repo: WebhookRepository,
    private readonly rules: WebhookAddressRules,
    private readonly sender: WebhookSender,
  ) {}

  /** Another user's endpoint is "not found": ids leak nothing. */
  private async owned(userId: string, id: string): Promise<WebhookEndpointRow> {
    const row = await this.repo.findOwned(userId, id);
    if (!row) throw notFound('接收地址不存在或已删除');
    return row;
  }

  async list(userId: string): Promise<WebhookEndpoint[]> {
    return (await this.repo.listOwned(userId)).map(view);
  }

  async create(user: AuthUser, body: z.output<typeof webhookCreateBodySchema>): Promise<WebhookCreated> {
    if (body.allUsers && !user.isAdmin) throw forbidden(ALL_USERS_ADMIN_ONLY);
    this.rules.check(body.url);
    const now = nowIso();
    const row: WebhookEndpointRow = {
      id: newId(),
      user_id: user.id,
      url: body.url,
      description: body.description,
      events: JSON.stringify(body.events),
      secret: newSigningSecret(),
      all_users: Number(body.allUsers),
      enabled: 1,
      created_at: now,
      updated_at: now,
    };
    if (!(await this.repo.insertWithin(row, WEBHOOK_MAX_PER_USER))) {
      throw fail(`最多可以登记 ${WEBHOOK_MAX_PER_USER} 个接收地址`);
    }
    return { ...view(row), secret: row.secret };
  }

  async update(user: AuthUser, id: string, body: z.output<typeof webhookUpdateBodySchema>): Promise<WebhookEndpoint> {
    const row = await this.owned(user.id, id);
    if (body.allUsers && !user.isAdmin) throw forbidden(ALL_USERS_ADMIN_ONLY);
    if (body.url !== undefined) this.rules.check(body.url);
    const values = {
      url: body.url ?? row.url,
      description: body.description ?? row.description,
      events: body.events ? JSON.stringify(body.events) : row.events,
      all_users: body.allUsers === undefined ? row.all_users : Number(body.allUsers),
      enabled: body.enabled === undefined ? row.enabled : Number(body.enabled),
      updated_at: nowIso(),
    };
    await this.repo.update(id, values);
    return view({ ...row, ...values });
  }

  /**
   * 重置密钥: a new signing secret, shown this once; the old one stops at once, also for retries still due (each
   * attempt is signed when it is sent).
   */
  async rotateSecret(userId: string, id: string): Promise<WebhookCreated> {
    const row = await this.owned(userId, id);
    const values = { secret: newSigningSecret(), updated_at: nowIso() };
    await this.repo.update(id, values);
    return { ...view({ ...row, ...values }), secret: values.secret };
  }

  async remove(userId: string, id: string): Promise<void> {
    await this.owned(userId, id);
    await this.repo.delete(id);
  }

  /** 测试发送: a webhook.test event to this endpoint now, whatever it subscribed to, answered with the result. */
  async test(userId: string, id: string): Promise<WebhookTestResult> {
    const row = await this.owned(userId, id);
    const result = await this.sender.sendOnce(row, {
      eventId: newEventId(),
      type: WEBHOOK_TEST_EVENT,
      payload: eventBody(WEBHOOK_TEST_EVENT, userId, { endpointId: row.id }),
    });
    return {
      deliveryId: result.deliveryId,
      success: result.success,
      statusCode: result.statusCode,
      error: result.error,
      durationMs: result.durationMs,
    };
  }

  async deliveries(userId: string, id: string, current: number, pageSize: number): Promise<Page<WebhookDelivery>> {
    await this.owned(userId, id);
    const { rows, total } = await this.repo.pageDeliveries(id, { current, pageSize });
    const attempts = await this.repo.attemptsOf(rows.map((row) => row.id));
    const list = rows.map((row): WebhookDelivery => {
      const log = attempts.filter((a) => a.delivery_id === row.id);
      return {
        id: row.id,
        eventId: row.event_id,
        eventType: row.event_type,
        status: webhookDeliveryStatusSchema.parse(row.status),
        attempts: log.length,
        nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
        createdAt: row.created_at,
        attemptLog: log.map((a) => ({
          attempt: a.attempt,
          at: a.at,
          statusCode: a.status_code,
          error: a.error,
          responseExcerpt: a.response_excerpt,
          durationMs: a.duration_ms,
        })),
      };
    });
    return { list, current, pageSize, total };
  }
}
