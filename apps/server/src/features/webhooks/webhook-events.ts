import type {
  GenerationEventData,
  OrderEventData,
  WebhookEvent,
  WebhookEventType,
  WorkPublishedEventData,
} from '@huafang/contracts';
import type { Transaction } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { newId, nowIso } from '../../platform/ids.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { generatedImage, workImageUrl, workThumbUrl } from '../works/work-files.js';
import type { WebhookRepository } from './webhook.repository.js';

/** A new Standard Webhooks message id: the same on every try of one event to one endpoint. */
export const newEventId = () => `msg_${newId()}`;

/** The body every try of a delivery sends, byte for byte (the signature covers it). */
export function eventBody(type: WebhookEvent['type'], userId: string, data: unknown): string {
  return JSON.stringify({ type, timestamp: nowIso(), userId, data });
}

/**
 * Turns what happened into deliveries, one per listening endpoint, written in the caller's transaction: the
 * outbox the sender works through, so an event is kept exactly when the change it reports is.
 */
export class WebhookEvents {
  private wake: () => void = () => {};

  constructor(
    private readonly repo: WebhookRepository,
    private readonly signer: UrlSigner,
  ) {}

  /** The sender of this process, if it runs one, looks at once instead of on its next round. */
  onEmitted(wake: () => void): void {
    this.wake = wake;
  }

  /** Called after the transaction that emitted committed. */
  nudge(): void {
    this.wake();
  }

  /** One step (job) of a generation settled as succeeded or failed: called inside the settling transaction. */
  async generationSettled(
    job: { id: string; user_id: string; generation_id: string; step_index: number },
    status: 'succeeded' | 'failed',
    message: string | null,
    trx: Transaction<DB>,
  ): Promise<void> {
    const type: WebhookEventType = status === 'succeeded' ? 'generation.succeeded' : 'generation.failed';
    await this.emit(
      job.user_id,
      type,
      async () => {
        const works = await this.repo.worksOfJob(job.id, trx);
        return {
          generateId: job.generation_id,
          jobId: job.id,
          stepIndex: job.step_index,
          status,
          message,
          images: works.map((work) => generatedImage(work, this.signer)),
        } satisfies GenerationEventData;
      },
      trx,
    );
  }

  /** A private work was published to 灵感广场: called inside the publishing transaction. */
  async workPublished(userId: string, work: { id: string; publishedAt: string }, trx: Transaction<DB>): Promise<void> {
    await this.emit(
      userId,
      'work.published',
      async () =>
        ({
          workId: work.id,
          url: workImageUrl(work.id),
          thumbUrl: workThumbUrl(work.id),
          publishedAt: work.publishedAt,
        }) satisfies WorkPublishedEventData,
      trx,
    );
  }

  /** An order was paid (order.paid) or refunded in part or whole (order.refunded): inside the settling transaction. */
  async orderSettled(
    userId: string,
    type: 'order.paid' | 'order.refunded',
    data: OrderEventData,
    trx: Executor,
  ): Promise<void> {
    await this.emit(userId, type, async () => data, trx);
  }

  /** `data` is read only when some endpoint listens, so an event nobody hears costs one query. */
  private async emit(
    userId: string,
    type: WebhookEventType,
    data: () => Promise<unknown>,
    trx: Executor,
  ): Promise<void> {
    const listeners = (await this.repo.listenersOf(userId, trx)).filter((endpoint) =>
      (JSON.parse(endpoint.events) as string[]).includes(type),
    );
    if (listeners.length === 0) return;
    const payload = eventBody(type, userId, await data());
    const now = nowIso();
    await this.repo.insertDeliveries(
      listeners.map((endpoint) => ({
        id: newId(),
        endpoint_id: endpoint.id,
        event_id: newEventId(),
        event_type: type,
        payload,
        status: 'pending',
        attempts: 0,
        next_attempt_at: now,
        created_at: now,
      })),
      trx,
    );
  }
}
