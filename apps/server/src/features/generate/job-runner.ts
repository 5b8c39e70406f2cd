import { createHash } from 'node:crypto';
import type { GenerationStatus } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { type EngineControlNet, EngineError, type EngineImage, type EngineJob } from '../../engines/engine.js';
import type { Database } from '../../platform/db/database.js';
import { BizError, fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { DISK_FULL_MESSAGE, isDiskFull, readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import { type AuditRecorder, NO_ORIGIN } from '../audit/audit-recorder.js';
import type { Backend, BackendPool } from '../backends/backend-pool.js';
import { producedLabel, withAigcLabel } from '../compliance/aigc-label.js';
import type { ComplianceService } from '../compliance/compliance.service.js';
import type { CreditChange, CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { WebhookEvents } from '../webhooks/webhook-events.js';
import type { WorkRepository, WorkRow } from '../works/work.repository.js';
import { generatedImage, storeWorkFiles, workFileKeys } from '../works/work-files.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import { type ImageSource, type JobPayload, workUnits } from './job-payload.js';
import { INTERRUPT, type JobOutcome, type JobRun, type QueueItem, SHUTDOWN } from './job-queue.js';
import type { ProgressStore } from './progress-store.js';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** What a settle knows of the run for the audit trail: the backend, and the hash of each original this run stored. */
type RunOutputs = { backend?: string; hashes?: ReadonlyMap<string, string> };

/** Seeds wrap like the engines' (A1111 and ComfyUI batches paint image i with seed + i). */
const SEED_RANGE = 4294967296;
/** How often a settle the database refused (a full disk) is tried again. */
const SETTLE_RETRY_MS = 2000;

/**
 * Scale-out mode: another run took this run's job over (BullMQ gave it to another worker after this one lost the
 * job's lock, e.g. Redis was away longer than JOB_LOCK_SECONDS). This run stops and writes nothing more.
 */
class TakenOverError extends Error {
  constructor(jobId: string) {
    super(`generation job ${jobId} was taken over by another run`);
  }
}

/**
 * The batch still to paint: all of it on a first run; after a stop with images kept (a shutdown, a crash),
 * only the rest, with the seeds the whole batch would have given them.
 */
function remainingBatch(payload: JobPayload, imageCount: number, kept: WorkRow[]) {
  const first = kept[0];
  if (!first) return { seed: payload.parameters.seed, batchSize: imageCount };
  return { seed: (Number(first.seed) + kept.length) % SEED_RANGE, batchSize: imageCount - kept.length };
}

export function queueItemOf(row: Pick<JobRow, 'id' | 'generation_id' | 'user_id' | 'payload' | 'attempts'>): QueueItem {
  const payload = JSON.parse(row.payload) as JobPayload;
  return {
    jobId: row.id,
    generateId: row.generation_id,
    userId: row.user_id,
    engineKind: payload.engineKind,
    checkpoint: payload.checkpoint,
    units: workUnits(payload.parameters),
    attempts: row.attempts,
    tried: new Set(),
  };
}

/**
 * Runs one job on a backend and settles it: loads its input images, drives the engine with progress into the
 * board, keeps every finished image as a work, and gives back the credits of the images not produced. `run` is
 * the one handler of generation jobs, whichever queue (in-process or BullMQ) hands them out.
 */
export class JobRunner {
  constructor(
    private readonly deps: {
      db: Database;
      repo: GenerationRepository;
      works: WorkRepository;
      files: FileService;
      storage: Storage;
      credits: CreditService;
      compliance: ComplianceService;
      board: ProgressStore;
      pool: BackendPool;
      webhooks: WebhookEvents;
      maxAttempts: number;
      signer: UrlSigner;
      log: FastifyBaseLogger;
      audit: AuditRecorder;
    },
  ) {}

  /** Settles the database refused, by job: tried again until they land or the server stops. */
  private readonly settleRetries = new Map<string, NodeJS.Timeout>();
  private closed = false;

  private async image(userId: string, source: ImageSource): Promise<Buffer> {
    if (source.kind === 'file') return this.deps.files.readOwned(userId, source.id, '输入图片');
    const work = await this.deps.works.findOwned(userId, source.id);
    const stream = work ? await this.deps.storage.read(work.image_key) : null;
    if (!stream) throw fail('所选图片已不存在');
    return readBytes(stream);
  }

  private async engineJob(
    userId: string,
    payload: JobPayload,
    batch: { seed: number; batchSize: number },
  ): Promise<EngineJob> {
    const p = payload.parameters;
    const controlNets: EngineControlNet[] = [];
    for (const unit of p.controlNets) {
      controlNets.push({
        module: unit.controlnetModule,
        model: unit.controlnetModel,
        image: await this.image(userId, { kind: 'file', id: unit.inputImageFileId }),
        weight: unit.weight,
        guidanceStart: unit.guidanceStart,
        guidanceEnd: unit.guidanceEnd,
        processorRes: unit.processorRes,
        thresholdA: unit.thresholdA,
        thresholdB: unit.thresholdB,
        controlMode: unit.controlMode,
      });
    }
    return {
      mode: payload.mode,
      prompt: payload.prompt,
      negativePrompt: payload.negativePrompt,
      checkpoint: payload.checkpoint,
      sampler: p.sampler,
      steps: p.steps,
      cfgScale: p.cfgScale,
      width: p.width,
      height: p.height,
      seed: batch.seed,
      batchSize: batch.batchSize,
      denoisingStrength: p.denoisingStrength,
      upscaleFactor: p.upscaleFactor,
      ...(payload.initImage ? { initImage: await this.image(userId, payload.initImage) } : {}),
      ...(controlNets.length > 0 ? { controlNets } : {}),
    };
  }

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
    const { log, pool } = this.deps;
    if (err instanceof TakenOverError) {
      log.warn({ jobId: item.jobId }, 'generation job taken over by another worker; this run stops');
      return 'failed';
    }
    if (signal.reason === SHUTDOWN) {
      await this.requeueForRestart(item).catch((e: unknown) => log.error({ err: e }, 'requeue on shutdown failed'));
      return 'requeue';
    }
    if (err instanceof EngineError && err.retryable) {
      await pool.markDown(backend, err.message);
      item.attempts++;
      item.tried.add(backend.id);
      log.warn({ jobId: item.jobId, backend: backend.id, attempts: item.attempts, err: err.message }, 'backend failed');
      // Retry only while some healthy backend can still take the job; with every one down, waiting helps nobody.
      if (item.attempts < this.deps.maxAttempts && pool.capacity(item.engineKind, item.checkpoint) > 0) {
        await this.requeueAfterFailure(item, err.message);
        return 'retry';
      }
      await this.fail(
        item,
        `推理后端暂时不可用（已尝试 ${item.attempts} 次），本次预扣的算力已退回，请稍后再试`,
        backend.name,
      );
      return 'failed';
    }
    const known = err instanceof EngineError || err instanceof BizError;
    const message = known ? err.message : '生成失败，请稍后再试；本次预扣的算力已退回';
    if (!known) log.error({ err, jobId: item.jobId }, 'generation job failed');
    await this.fail(item, message, backend.name).catch((e: unknown) =>
      log.error({ err: e }, 'settling a failed job failed'),
    );
    return 'failed';
  }

  private async paint(item: QueueItem, backend: Backend, { signal, etaSeconds, started }: JobRun): Promise<JobOutcome> {
    const { repo, board, log } = this.deps;
    const row = await repo.findJob(item.jobId);
    // Gone, or settled meanwhile (its waiting place was cancelled as it was handed out).
    if (!row || (row.status !== 'queued' && row.status !== 'running')) return 'failed';
    const payload = JSON.parse(row.payload) as JobPayload;
    // The claim's time is this run's token: images are kept and the job settled only while the job still bears it.
    const now = nowIso();
    if (!(await repo.claimJob(row.id, { started_at: now, backend_id: backend.id, attempts: item.attempts }))) {
      return 'failed';
    }
    // Listed once claimed: a run this one took over can no longer add images (see keep).
    const kept = await this.deps.works.listByJob(row.id);
    if (kept.length >= row.image_count) {
      await this.settle(row, 'succeeded', kept.length, null, { claimedAt: now, backend: backend.name });
      return 'succeeded';
    }
    // Which process runs which job: in scale-out mode the only record of where a job went (a killed worker's pid).
    log.info({ jobId: row.id, backend: backend.id, images: row.image_count - kept.length }, 'generation job started');
    await repo.updateGeneration(row.generation_id, { status: 'running', updated_at: now });
    await board.running(row.generation_id, row.id, etaSeconds);
    started?.();

    const job = await this.engineJob(row.user_id, payload, remainingBatch(payload, row.image_count, kept));
    const result = await backend.engine.run(job, {
      signal,
      onProgress: (p) => {
        board.progress(row.generation_id, row.id, p).catch((err: unknown) => log.warn({ err }, 'progress not stored'));
      },
    });
    let produced = kept.length;
    const hashes = new Map<string, string>();
    const claim = { claimedAt: now, backend: backend.name, hashes };
    for (const image of result.images) {
      // The image being painted when the job was stopped is unfinished: only whole images become works.
      if (image.interrupted) continue;
      try {
        const stored = await this.keep(row, payload, backend.name, image, now);
        hashes.set(stored.workId, stored.sha256);
      } catch (err) {
        if (!isDiskFull(err)) throw err;
        this.deps.log.error({ err, jobId: row.id }, 'storage full while keeping a generated image');
        const refund = produced > 0 ? '已完成的图片已保留，其余算力已退回' : '本次预扣的算力已退回';
        await this.settle(row, 'failed', produced, `${DISK_FULL_MESSAGE}；${refund}`, claim);
        return 'failed';
      }
      produced++;
    }
    // A shutdown is not the user's stop: the images still missing are painted after the restart.
    if (signal.reason === SHUTDOWN && produced < row.image_count) {
      await this.requeueForRestart(item);
      return 'requeue';
    }
    const stopped = result.interrupted || signal.reason === INTERRUPT;
    if (stopped) {
      await this.settle(row, 'interrupted', produced, produced > 0 ? '已中断，完成的图片已保留' : '已中断', claim);
      return 'interrupted';
    }
    if (produced === 0) {
      await this.settle(row, 'failed', 0, '推理后端没有返回图片，本次预扣的算力已退回', claim);
      return 'failed';
    }
    await this.settle(row, 'succeeded', produced, null, claim);
    return 'succeeded';
  }

  /**
   * One finished image becomes a work, while the run that claimed the job at `claimedAt` still holds it; when that
   * fails, its files go too, so nothing half-kept remains.
   */
  private async keep(
    row: JobRow,
    payload: JobPayload,
    backendName: string,
    image: EngineImage,
    claimedAt: string,
  ): Promise<{ workId: string; sha256: string }> {
    const workId = newId();
    // Every engine's image passes here: the implicit AIGC label goes into the stored original.
    const { producer } = await this.deps.compliance.settings();
    const png = withAigcLabel(image.png, producedLabel(producer, workId));
    const files = await storeWorkFiles(this.deps.storage, workId, png).catch(async (err: unknown) => {
      await this.removeWorkFiles(workId);
      throw err;
    });
    const work = {
      id: workId,
      user_id: row.user_id,
      generation_id: row.generation_id,
      job_id: row.id,
      template_id: payload.templateId,
      template_name: payload.templateName,
      template_step_id: payload.templateStepId,
      step_index: payload.stepIndex,
      mode: payload.mode,
      prompt: payload.prompt,
      negative_prompt: payload.negativePrompt,
      prompt_group: row.prompt_group,
      negative_prompt_group: row.negative_prompt_group,
      parameters: JSON.stringify({ ...payload.parameters, seed: image.seed, batchSize: 1 }),
      seed: image.seed,
      width: image.width,
      height: image.height,
      backend: backendName,
      image_key: files.imageKey,
      thumb_key: files.thumbKey,
      public: 0,
      views: 0,
      created_at: nowIso(),
    };
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        if (!(await this.deps.repo.holdsClaim(trx, row.id, claimedAt))) throw new TakenOverError(row.id);
        await this.deps.works.insert(work, trx);
      });
    } catch (err) {
      await this.removeWorkFiles(workId);
      throw err;
    }
    await this.deps.board.addImages(row.generation_id, row.id, [
      generatedImage({ id: workId, width: image.width, height: image.height, seed: image.seed }, this.deps.signer),
    ]);
    // The stored original's own hash, AIGC label included: what the audit trail names as this work's file.
    return { workId, sha256: sha256(png) };
  }

  private async removeWorkFiles(workId: string): Promise<void> {
    const { imageKey, thumbKey } = workFileKeys(workId);
    await Promise.allSettled([this.deps.storage.remove(imageKey), this.deps.storage.remove(thumbKey)]);
  }

  /**
   * Final state of a job: status, the credits of images not produced given back, the generation updated. When
   * the database refuses the write (a full disk), the user still sees the end at once and the write is tried
   * again in the background; a restart before it lands continues the job instead (see recover).
   */
  private async settle(
    row: JobRow,
    status: GenerationStatus,
    produced: number,
    message: string | null,
    {
      settles = ['queued', 'running'],
      claimedAt,
      ...outputs
    }: {
      /** The statuses it may settle from. */
      settles?: readonly string[];
      /** A run settles its job only while it still holds it (see JobRunner.keep). */
      claimedAt?: string;
    } & RunOutputs = {},
  ): Promise<boolean> {
    const perImage = row.image_count > 0 ? row.cost / row.image_count : 0;
    const refund = Math.max(0, Math.round(row.cost - perImage * produced));
    const now = nowIso();
    const write = async () => {
      const landed = await this.deps.db.transaction().execute(async (trx) => {
        await this.deps.repo.lockUser(trx, row.user_id);
        if (claimedAt !== undefined && !(await this.deps.repo.holdsClaim(trx, row.id, claimedAt))) return null;
        const current = await this.deps.repo.findJob(row.id, trx);
        // Settled already (a retry racing a write that did land, another worker): credits go back once.
        if (!current || !settles.includes(current.status)) return null;
        await this.deps.repo.updateJob(row.id, { status, produced, refunded: refund, message, finished_at: now }, trx);
        const refunded = await this.deps.credits.refund(trx, row.user_id, refund, row.id);
        const generation = await this.deps.repo.findGeneration(row.generation_id, trx);
        if (generation?.current_job_id === row.id) {
          await this.deps.repo.updateGeneration(row.generation_id, { status, updated_at: now }, trx);
        }
        // In the settling transaction: the event is kept exactly when the end it reports is (the outbox).
        if (status === 'succeeded' || status === 'failed') {
          await this.deps.webhooks.generationSettled(trx, row, status, message);
        }
        return { refunded };
      });
      // Recorded once the end has committed, and only by the write that landed it.
      if (landed) await this.recordOutcome(row, status, produced, message, landed.refunded, outputs);
      return landed !== null;
    };
    const settled = await write().catch((err: unknown) => {
      this.retrySettle(row.id, write, err);
      return true;
    });
    if (settled) {
      await this.deps.board.finished(row.generation_id, row.id, status, message);
      this.deps.webhooks.nudge();
    }
    return settled;
  }

  private retrySettle(jobId: string, write: () => Promise<boolean>, err: unknown): void {
    this.deps.log.error({ err, jobId }, 'settling a job failed; trying again');
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.settleRetries.delete(jobId);
      write().catch((again: unknown) => this.retrySettle(jobId, write, again));
    }, SETTLE_RETRY_MS);
    timer.unref();
    this.settleRetries.set(jobId, timer);
  }

  /** Stops the retries: a job whose settle never landed is still running in the database and continues next start. */
  close(): void {
    this.closed = true;
    for (const timer of this.settleRetries.values()) clearTimeout(timer);
    this.settleRetries.clear();
  }

  async fail(item: QueueItem, message: string, backend?: string): Promise<void> {
    const row = await this.deps.repo.findJob(item.jobId);
    if (row) await this.settle(row, 'failed', (await this.deps.works.listByJob(row.id)).length, message, { backend });
  }

  /**
   * The job's end in the audit trail (generation.succeeded, failed or interrupted) with what it asked and what it
   * made: each work's id (its AIGC ProduceID) and the SHA-256 of its stored original; and the refund, if any.
   * Never throws: the trail must not undo a settle.
   */
  private async recordOutcome(
    row: JobRow,
    status: GenerationStatus,
    produced: number,
    message: string | null,
    refunded: CreditChange | null,
    { backend, hashes = new Map() }: RunOutputs,
  ): Promise<void> {
    try {
      const payload = JSON.parse(row.payload) as JobPayload;
      const origin = payload.origin ?? NO_ORIGIN;
      this.deps.credits.recorded(refunded, origin);
      const outputs =
        hashes.size >= produced
          ? [...hashes].map(([produceId, hash]) => ({ produceId, sha256: hash }))
          : await this.keptOutputs(row.id, hashes);
      this.deps.audit.record({
        action:
          status === 'succeeded'
            ? 'generation.succeeded'
            : status === 'interrupted'
              ? 'generation.interrupted'
              : 'generation.failed',
        userId: row.user_id,
        origin,
        target: { type: 'generation', id: row.generation_id },
        detail: {
          jobId: row.id,
          prompt: payload.prompt,
          negativePrompt: payload.negativePrompt,
          modelId: payload.parameters.modelId,
          checkpoint: payload.checkpoint,
          engine: payload.engineKind,
          backend: backend ?? null,
          imageCount: row.image_count,
          produced,
          outputs,
          ...(message ? { message } : {}),
        },
      });
    } catch (err) {
      this.deps.log.error({ err, jobId: row.id }, 'audit entry of a settled job not recorded');
    }
  }

  /** Works an earlier run of the job kept (before a restart): their hashes are read back from storage. */
  private async keptOutputs(jobId: string, known: ReadonlyMap<string, string>) {
    const works = await this.deps.works.listByJob(jobId);
    return Promise.all(
      works.map(async (work) => {
        const known256 = known.get(work.id);
        const stream = known256 ? null : await this.deps.storage.read(work.image_key);
        return { produceId: work.id, sha256: known256 ?? (stream ? sha256(await readBytes(stream)) : null) };
      }),
    );
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

  async requeueAfterFailure(item: QueueItem, reason: string): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, attempts: item.attempts });
    await this.deps.board.requeued(item.generateId, item.jobId, `推理后端出错（${reason}），正在换一台重试…`);
  }

  /** Scale-out: the job's worker died; it waits for another, which resumes it (recover). */
  async moving(jobId: string, message: string): Promise<void> {
    const row = await this.deps.repo.findJob(jobId);
    if (row?.status === 'running' || row?.status === 'queued') {
      await this.deps.board.requeued(row.generation_id, row.id, message);
    }
  }

  async requeueForRestart(item: QueueItem): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, started_at: null });
    await this.deps.repo.updateGeneration(item.generateId, { status: 'queued', updated_at: nowIso() });
    await this.deps.board.requeued(item.generateId, item.jobId, '服务重启中，任务将在重启后继续');
  }

  /**
   * A job a previous process left unfinished waits again. One it left running (a crash) or put back in line with
   * images kept (a shutdown) shows those images and paints only the rest; it is never failed for the restart.
   */
  async recover(row: JobRow): Promise<QueueItem> {
    const item = queueItemOf(row);
    const { board, signer } = this.deps;
    // Scale-out: a worker that lost the job's lock may still be running it and settle it just now. Its run loses
    // the job here (see keep); a job it settled first keeps the end its board shows, and the run of this item
    // finds it settled and does nothing.
    const running = row.status === 'running';
    if (running && !(await this.deps.repo.releaseClaim(row.id))) return item;
    // One write with the kept images, so a poll never sees them vanish for a moment.
    const kept = await this.deps.works.listByJob(row.id);
    await board.queued(
      row.user_id,
      { generateId: row.generation_id, jobId: row.id, stepNum: row.step_num, stepIndex: row.step_index },
      kept.map((work) => generatedImage(work, signer)),
    );
    if (running) {
      await this.deps.repo.updateGeneration(row.generation_id, { status: 'queued', updated_at: nowIso() });
      await board.requeued(
        row.generation_id,
        row.id,
        kept.length > 0 ? '服务重启后继续生成其余图片，已完成的图片已保留' : '服务重启后重新排队',
      );
    }
    this.deps.log.info({ jobId: row.id }, 'generation job recovered after restart');
    return item;
  }
}
