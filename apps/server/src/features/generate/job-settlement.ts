import type { GenerationStatus } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../platform/db/database.js';
import { nowIso } from '../../platform/ids.js';
import type { CreditService } from '../credits/credit.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { WorkRepository } from '../works/work.repository.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import type { QueueItem } from './job-queue.js';
import type { ProgressStore } from './progress-store.js';
import type { RunOutputs, SettledJobAudit } from './settled-job-audit.js';

/** How often a settle the database refused (a full disk) is tried again. */
const SETTLE_RETRY_MS = 2000;

export type SettleOptions = {
  /** The statuses it may settle from. */
  settles?: readonly string[];
  /** A run settles its job only while it still holds it (see WorkKeeper.keep). */
  claimedAt?: string;
} & RunOutputs;

/**
 * A job's end: its status, the credits of the images not produced given back, the generation updated, the
 * webhook event and the audit entries; a settle the database refused is tried again on a timer.
 */
export class JobSettlement {
  constructor(
    private readonly deps: {
      db: Database;
      repo: GenerationRepository;
      works: WorkRepository;
      credits: CreditService;
      board: ProgressStore;
      webhooks: WebhookEvents;
      audit: SettledJobAudit;
      log: FastifyBaseLogger;
    },
  ) {}

  /** Settles the database refused, by job: tried again until they land or the server stops. */
  private readonly retries = new Map<string, NodeJS.Timeout>();
  private closed = false;

  /**
   * Final state of a job. When the database refuses the write (a full disk), the user still sees the end at once
   * and the write is tried again in the background; a restart before it lands continues the job instead (see
   * JobRequeue.recover).
   */
  async settle(
    row: JobRow,
    status: GenerationStatus,
    produced: number,
    message: string | null,
    { settles = ['queued', 'running'], claimedAt, ...outputs }: SettleOptions = {},
  ): Promise<boolean> {
    const perImage = row.image_count > 0 ? row.cost / row.image_count : 0;
    const refund = Math.max(0, Math.round(row.cost - perImage * produced));
    const now = nowIso();
    const write = async () => {
      const landed = await this.deps.db.transaction().execute(async (trx) => {
        await this.deps.repo.lockUser(row.user_id, trx);
        if (claimedAt !== undefined && !(await this.deps.repo.holdsClaim(row.id, claimedAt, trx))) return null;
        const current = await this.deps.repo.findJob(row.id, trx);
        // Settled already (a retry racing a write that did land, another worker): credits go back once.
        if (!current || !settles.includes(current.status)) return null;
        await this.deps.repo.updateJob(row.id, { status, produced, refunded: refund, message, finished_at: now }, trx);
        const refunded = await this.deps.credits.refund(row.user_id, refund, row.id, trx);
        const generation = await this.deps.repo.findGeneration(row.generation_id, trx);
        if (generation?.current_job_id === row.id) {
          await this.deps.repo.updateGeneration(row.generation_id, { status, updated_at: now }, trx);
        }
        // In the settling transaction: the event is kept exactly when the end it reports is (the outbox).
        if (status === 'succeeded' || status === 'failed') {
          await this.deps.webhooks.generationSettled(row, status, message, trx);
        }
        return { refunded };
      });
      // Recorded once the end has committed, and only by the write that landed it.
      if (landed) await this.deps.audit.record(row, status, produced, message, landed.refunded, outputs);
      return landed !== null;
    };
    const settled = await write().catch((err: unknown) => {
      this.retry(row.id, write, err);
      return true;
    });
    if (settled) {
      await this.deps.board.finished(row.generation_id, row.id, status, message);
      this.deps.webhooks.nudge();
    }
    return settled;
  }

  private retry(jobId: string, write: () => Promise<boolean>, err: unknown): void {
    this.deps.log.error({ err, jobId }, 'settling a job failed; trying again');
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.retries.delete(jobId);
      write().catch((again: unknown) => this.retry(jobId, write, again));
    }, SETTLE_RETRY_MS);
    timer.unref();
    this.retries.set(jobId, timer);
  }

  /** Stops the retries: a job whose settle never landed is still running in the database and continues next start. */
  close(): void {
    this.closed = true;
    for (const timer of this.retries.values()) clearTimeout(timer);
    this.retries.clear();
  }

  /** Fails the job; the images earlier runs kept stay, the rest of its credits go back. */
  async fail(item: QueueItem, message: string, backend?: string): Promise<void> {
    const row = await this.deps.repo.findJob(item.jobId);
    if (row) await this.settle(row, 'failed', (await this.deps.works.listByJob(row.id)).length, message, { backend });
  }

  /**
   * Interrupt of a job still waiting: the images a stopped earlier run kept stay, the rest goes back. False when
   * it started meanwhile (the caller interrupts the run instead).
   */
  async cancelWaiting(jobId: string, settles: readonly string[] = ['queued']): Promise<boolean> {
    const row = await this.deps.repo.findJob(jobId);
    if (!row) return false;
    const kept = (await this.deps.works.listByJob(row.id)).length;
    return this.settle(row, 'interrupted', kept, kept > 0 ? '已中断，完成的图片已保留' : '已取消排队', { settles });
  }
}
