import type { FastifyBaseLogger } from 'fastify';
import { EngineError, type EngineProgress } from '../../engines/engine.js';
import { BizError } from '../../platform/errors.js';
import { nowIso } from '../../platform/ids.js';
import { DISK_FULL_MESSAGE, isDiskFull } from '../../platform/storage/storage.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import type { WorkRepository } from '../works/work.repository.js';
import type { GenerationRepository } from './generation.repository.js';
import { type JobInputs, remainingBatch } from './job-inputs.js';
import type { JobPayload } from './job-payload.js';
import { INTERRUPT, type JobOutcome, type JobRun, type QueueItem, SHUTDOWN } from './job-queue.js';
import type { JobRequeue } from './job-requeue.js';
import type { JobSettlement } from './job-settlement.js';
import type { ProgressStore } from './progress-store.js';
import { TakenOverError, type WorkKeeper } from './work-keeper.js';

/**
 * An engine run's progress as the job's: the run paints `count` of the job's `total` images after `before` were
 * done, so a resumed job goes on from where it stood instead of starting again at 0 %.
 */
function ofWholeJob(p: EngineProgress, before: number, count: number, total: number): EngineProgress {
  if (before === 0 && count === total) return p;
  const percent = ((before + (count * p.percent) / 100) / total) * 100;
  return { ...p, percent: Math.round(percent * 10) / 10, imageIndex: before + p.imageIndex };
}

/**
 * Runs one job on the backend a queue gave it: claims the job, drives the engine with progress into the board,
 * has every finished image kept as a work, and ends the run in one outcome (settled, retried on another backend,
 * or left for the restart).
 */
export class JobRunner {
  constructor(
    private readonly deps: {
      repo: GenerationRepository;
      works: WorkRepository;
      board: ProgressStore;
      pool: BackendPool;
      maxAttempts: number;
      log: FastifyBaseLogger;
      inputs: JobInputs;
      keeper: WorkKeeper;
      settlement: JobSettlement;
      requeue: JobRequeue;
    },
  ) {}

  /**
   * Runs the job on the backend it was given. `signal` aborts with INTERRUPT (the user's, through the interrupt
   * channel the queue watches) or SHUTDOWN (the process stops).
   */
  async run(item: QueueItem, backend: Backend, run: JobRun): Promise<JobOutcome> {
    try {
      return await this.paint(item, backend, run);
    } catch (err) {
      return await this.afterError(item, backend, run.signal, err);
    }
  }

  /**
   * A backend failure (unreachable, 5xx, timeout) marks it down and sends the job to another while attempts and
   * healthy backends remain; anything else fails the job with its credits back.
   */
  private async afterError(item: QueueItem, backend: Backend, signal: AbortSignal, err: unknown): Promise<JobOutcome> {
    const { log, pool, settlement } = this.deps;
    if (err instanceof TakenOverError) {
      log.warn({ jobId: item.jobId }, 'generation job taken over by another worker; this run stops');
      return 'failed';
    }
    if (signal.reason === SHUTDOWN) {
      await this.deps.requeue
        .forRestart(item)
        .catch((e: unknown) => log.error({ err: e }, 'requeue on shutdown failed'));
      return 'requeue';
    }
    if (err instanceof EngineError && err.retryable) {
      await pool.markDown(backend, err.message);
      item.attempts++;
      item.tried.add(backend.id);
      log.warn({ jobId: item.jobId, backend: backend.id, attempts: item.attempts, err: err.message }, 'backend failed');
      // Retry only while some healthy backend can still take the job; with every one down, waiting helps nobody.
      if (item.attempts < this.deps.maxAttempts && pool.capacity(item.engineKind, item.checkpoint, item.loras) > 0) {
        await this.deps.requeue.afterFailure(item, err.message);
        return 'retry';
      }
      await settlement.fail(
        item,
        `推理后端暂时不可用（已尝试 ${item.attempts} 次），本次预扣的算力已退回，请稍后再试`,
        backend.name,
      );
      return 'failed';
    }
    const known = err instanceof EngineError || err instanceof BizError;
    const message = known ? err.message : '生成失败，请稍后再试；本次预扣的算力已退回';
    if (!known) log.error({ err, jobId: item.jobId }, 'generation job failed');
    await settlement
      .fail(item, message, backend.name)
      .catch((e: unknown) => log.error({ err: e }, 'settling a failed job failed'));
    return 'failed';
  }

  private async paint(item: QueueItem, backend: Backend, { signal, etaSeconds, started }: JobRun): Promise<JobOutcome> {
    const { repo, board, log, settlement } = this.deps;
    const row = await repo.findJob(item.jobId);
    // Gone, or settled meanwhile (its waiting place was cancelled as it was handed out).
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return 'failed';
    const payload = JSON.parse(row.payload) as JobPayload;
    // The claim's time is this run's token: images are kept and the job settled only while the job still bears it.
    const now = nowIso();
    if (!(await repo.claimJob(row.id, { started_at: now, backend_id: backend.id, attempts: item.attempts }))) {
      return 'failed';
    }
    // Listed once claimed: a run this one took over can no longer add images (see WorkKeeper.keep).
    const kept = await this.deps.works.listByJob(row.id);
    if (kept.length >= row.image_count) {
      await settlement.settle(row, 'succeeded', kept.length, null, { claimedAt: now, backend: backend.name });
      return 'succeeded';
    }
    // Which process runs which job: in scale-out mode the only record of where a job went (a killed worker's pid).
    log.info({ jobId: row.id, backend: backend.id, images: row.image_count - kept.length }, 'generation job started');
    await repo.updateGeneration(row.generation_id, { status: 'running', updated_at: now });
    await board.running(row.generation_id, row.id, etaSeconds);
    started?.();

    // The missing images only, each with its own seed of the batch, in runs of consecutive seeds.
    const runs = remainingBatch(payload, row.image_count, kept);
    const job = await this.deps.inputs.engineJob(row.user_id, payload, runs[0]!);
    let produced = kept.length;
    let interrupted = false;
    const hashes = new Map<string, string>();
    const claim = { claimedAt: now, backend: backend.name, hashes };
    for (const run of runs) {
      if (signal.aborted) {
        interrupted = true;
        break;
      }
      const before = produced;
      const result = await backend.engine.run(
        { ...job, ...run },
        {
          signal,
          onProgress: (p) => {
            board
              .progress(row.generation_id, row.id, ofWholeJob(p, before, run.batchSize, row.image_count))
              .catch((err: unknown) => log.warn({ err }, 'progress not stored'));
          },
        },
      );
      for (const image of result.images) {
        // The image being painted when the job was stopped is unfinished: only whole images become works.
        if (image.interrupted) continue;
        try {
          const stored = await this.deps.keeper.keep(row, payload, backend.name, image, now);
          hashes.set(stored.workId, stored.sha256);
        } catch (err) {
          if (!isDiskFull(err)) throw err;
          log.error({ err, jobId: row.id }, 'storage full while keeping a generated image');
          const refund = produced > 0 ? '已完成的图片已保留，其余算力已退回' : '本次预扣的算力已退回';
          await settlement.settle(row, 'failed', produced, `${DISK_FULL_MESSAGE}；${refund}`, claim);
          return 'failed';
        }
        produced++;
      }
      if (result.interrupted) {
        interrupted = true;
        break;
      }
    }
    // A shutdown is not the user's stop: the images still missing are painted after the restart.
    if (signal.reason === SHUTDOWN && produced < row.image_count) {
      await this.deps.requeue.forRestart(item);
      return 'requeue';
    }
    const stopped = interrupted || signal.reason === INTERRUPT;
    if (stopped) {
      await settlement.settle(
        row,
        'interrupted',
        produced,
        produced > 0 ? '已中断，完成的图片已保留' : '已中断',
        claim,
      );
      return 'interrupted';
    }
    if (produced === 0) {
      await settlement.settle(row, 'failed', 0, '推理后端没有返回图片，本次预扣的算力已退回', claim);
      return 'failed';
    }
    await settlement.settle(row, 'succeeded', produced, null, claim);
    return 'succeeded';
  }
}
