import type { FastifyBaseLogger } from 'fastify';
import type { Agent } from 'undici';
import { isoIn, newId, nowIso } from '../../platform/ids.js';
import type { ClaimedDelivery, WebhookRepository } from './webhook.repository.js';
import type { WebhookAddressRules } from './webhook-address.js';
import {
  sendWebhook,
  type WebhookMessage,
  type WebhookTarget,
  type WebhookTry,
  webhookAgent,
} from './webhook-client.js';
import { nextAttemptDelayMs } from './webhook-schedule.js';

/** How often the sender looks for due deliveries it was not told of (retries, events of other processes). */
const POLL_MS = 2_000;
/** Tries one process has in flight at once, over all endpoints. */
const WEBHOOK_MAX_IN_FLIGHT = 16;
/** Tries one process has in flight at once to one endpoint: a slow receiver holds one place, not the others'. */
const WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT = 1;
/** 测试发送 holds the user's request: it waits this long at most, however long deliveries may wait. */
const WEBHOOK_TEST_TIMEOUT_MS = 5_000;
/** A held delivery becomes due again this long after its try's timeout, should its sender have died. */
const LEASE_MARGIN_MS = 60_000;

export type WebhookSenderOptions = { timeoutMs: number; maxAttempts: number; retryBaseMs: number };

/**
 * Sends deliveries and retries failed ones with growing delays. Every process can send one delivery at once (测试
 * 发送); the loop that works through the outbox runs where jobs run: the embedded process and scale-out workers.
 * Each try goes out on its own as soon as it is claimed, so one slow receiver delays only its own deliveries: a
 * process claims a delivery only when it has a free place (WEBHOOK_MAX_IN_FLIGHT) and that endpoint has none in
 * flight from it (WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT); what it cannot send now stays in the outbox for any sender.
 * Several loops never send one try twice: each try is claimed with one conditional update (see claim).
 */
export class WebhookSender {
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Tries in flight, and how many of them go to each endpoint. */
  private readonly tries = new Set<Promise<void>>();
  private readonly perEndpoint = new Map<string, number>();
  private readonly agent: Agent;

  constructor(
    private readonly repo: WebhookRepository,
    private readonly rules: WebhookAddressRules,
    private readonly options: WebhookSenderOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.agent = webhookAgent(rules);
  }

  start(): void {
    this.timer = setInterval(() => this.nudge(), POLL_MS);
    this.timer.unref();
    this.nudge();
  }

  /** Looks for due deliveries now (one look at a time; a nudge during one makes another follow). */
  nudge(): void {
    if (this.closed || !this.timer) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((err: unknown) => this.log.error({ err }, 'webhook deliveries not sent'))
      .finally(() => {
        this.draining = null;
        if (this.again) {
          this.again = false;
          this.nudge();
        }
      });
  }

  /** Claims due deliveries while there are free places, starting each try at once; never waits for one. */
  private async drain(): Promise<void> {
    while (!this.closed) {
      const free = WEBHOOK_MAX_IN_FLIGHT - this.tries.size;
      if (free <= 0) return;
      const busy = [...this.perEndpoint].filter(([, n]) => n >= WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT).map(([id]) => id);
      const due = await this.repo.due(nowIso(), free, busy);
      let started = 0;
      for (const { id, endpoint_id, next_attempt_at } of due) {
        if (this.closed || this.tries.size >= WEBHOOK_MAX_IN_FLIGHT) break;
        if ((this.perEndpoint.get(endpoint_id) ?? 0) >= WEBHOOK_MAX_IN_FLIGHT_PER_ENDPOINT) continue;
        const leaseUntil = this.leaseEnd();
        const claimed = next_attempt_at ? await this.repo.claim(id, next_attempt_at, leaseUntil) : undefined;
        if (!claimed) continue;
        this.launch(claimed, leaseUntil);
        started += 1;
      }
      // Nothing due, or every one taken by another sender: wait for the next round (or a try's end).
      if (started === 0) return;
    }
  }

  /** Starts a claimed try, holding its places until it is recorded; its end looks for more. */
  private launch(delivery: ClaimedDelivery, leaseUntil: string): void {
    const endpointId = delivery.endpoint_id;
    this.perEndpoint.set(endpointId, (this.perEndpoint.get(endpointId) ?? 0) + 1);
    const run = this.deliver(delivery, leaseUntil)
      .catch((err: unknown) => this.log.error({ err, deliveryId: delivery.id }, 'webhook delivery not recorded'))
      .finally(() => {
        const left = (this.perEndpoint.get(endpointId) ?? 1) - 1;
        if (left > 0) this.perEndpoint.set(endpointId, left);
        else this.perEndpoint.delete(endpointId);
        this.tries.delete(run);
        this.nudge();
      });
    this.tries.add(run);
  }

  private leaseEnd(): string {
    return isoIn(this.options.timeoutMs + LEASE_MARGIN_MS);
  }

  /** One try of a claimed delivery, then its new state: done, failed for good, or due again later. */
  private async deliver(delivery: ClaimedDelivery, leaseUntil: string): Promise<void> {
    const result =
      delivery.enabled === 1
        ? await this.send(delivery, { eventId: delivery.event_id, payload: delivery.payload })
        : { success: false, statusCode: null, error: '接收地址已停用', responseExcerpt: null, durationMs: 0 };
    const delay =
      result.success || delivery.enabled !== 1
        ? null
        : nextAttemptDelayMs(delivery.attempts, this.options.maxAttempts, this.options.retryBaseMs);
    let state = { status: 'failed', next_attempt_at: null as string | null };
    if (result.success) state = { status: 'succeeded', next_attempt_at: null };
    else if (delay !== null) state = { status: 'pending', next_attempt_at: isoIn(delay) };
    await this.record(delivery.id, delivery.attempts, leaseUntil, result, state);
    // A retry due before the next round (short delays in tests) is looked for when due.
    if (delay !== null && delay < POLL_MS) setTimeout(() => this.nudge(), delay + 10).unref();
    if (!result.success) {
      this.log.info(
        { deliveryId: delivery.id, attempt: delivery.attempts, error: result.error, retryInMs: delay },
        'webhook delivery failed',
      );
    }
  }

  send(target: WebhookTarget, message: WebhookMessage, timeoutMs = this.options.timeoutMs): Promise<WebhookTry> {
    return sendWebhook(target, message, { timeoutMs, rules: this.rules, dispatcher: this.agent });
  }

  /**
   * 测试发送: a delivery written as held by this process, tried once at once, kept in the log but never retried.
   * It waits WEBHOOK_TEST_TIMEOUT_MS at most (less if WEBHOOK_TIMEOUT_SECONDS is less): the user is waiting.
   */
  async sendOnce(
    endpoint: WebhookTarget & { id: string },
    message: WebhookMessage & { type: string },
  ): Promise<WebhookTry & { deliveryId: string }> {
    const deliveryId = newId();
    const leaseUntil = this.leaseEnd();
    await this.repo.insertDeliveries([
      {
        id: deliveryId,
        endpoint_id: endpoint.id,
        event_id: message.eventId,
        event_type: message.type,
        payload: message.payload,
        status: 'pending',
        attempts: 1,
        next_attempt_at: leaseUntil,
        created_at: nowIso(),
      },
    ]);
    const result = await this.send(endpoint, message, Math.min(this.options.timeoutMs, WEBHOOK_TEST_TIMEOUT_MS));
    await this.record(deliveryId, 1, leaseUntil, result, {
      status: result.success ? 'succeeded' : 'failed',
      next_attempt_at: null,
    });
    return { ...result, deliveryId };
  }

  private record(
    deliveryId: string,
    attempt: number,
    leaseUntil: string,
    result: WebhookTry,
    state: { status: string; next_attempt_at: string | null },
  ): Promise<void> {
    return this.repo.settle(
      { id: deliveryId, leaseUntil },
      {
        id: newId(),
        delivery_id: deliveryId,
        attempt,
        at: nowIso(),
        status_code: result.statusCode,
        error: result.error,
        response_excerpt: result.responseExcerpt,
        duration_ms: result.durationMs,
      },
      state,
    );
  }

  /** Stops the loop after the tries in flight; a delivery it was about to take stays due for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.draining;
    await Promise.all(this.tries);
    await this.agent.close();
  }
}
