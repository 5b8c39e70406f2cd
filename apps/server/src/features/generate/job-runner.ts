import type { GenerationStatus } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineControlNet, EngineImage, EngineJob } from '../../engines/engine.js';
import type { Database } from '../../platform/db/database.js';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { DISK_FULL_MESSAGE, isDiskFull, readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { Backend } from '../backends/backend-registry.js';
import type { CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { WorkRepository, WorkRow } from '../works/work.repository.js';
import { generatedImage, storeWorkFiles, workFileKeys } from '../works/work-files.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import type { QueueItem } from './generation-queue.js';
import { INTERRUPT, SHUTDOWN } from './generation-queue.js';
import { type ImageSource, type JobPayload, workUnits } from './job-payload.js';
import type { ProgressBoard } from './progress-board.js';

export type JobOutcome = 'succeeded' | 'interrupted' | 'failed' | 'requeue';

/** Seeds wrap like the engines' (A1111 and ComfyUI batches paint image i with seed + i). */
const SEED_RANGE = 4294967296;
/** How often a settle the database refused (a full disk) is tried again. */
const SETTLE_RETRY_MS = 2000;

/**
 * The batch still to paint: all of it on a first run; after a stop with images kept (a shutdown, a crash),
 * only the rest, with the seeds the whole batch would have given them.
 */
function remainingBatch(payload: JobPayload, imageCount: number, kept: WorkRow[]) {
  const first = kept[0];
  if (!first) return { seed: payload.parameters.seed, batchSize: imageCount };
  return { seed: (Number(first.seed) + kept.length) % SEED_RANGE, batchSize: imageCount - kept.length };
}

function queueItemOf(row: JobRow): QueueItem {
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
 * board, keeps every finished image as a work, and gives back the credits of the images not produced.
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
      board: ProgressBoard;
      signer: UrlSigner;
      log: FastifyBaseLogger;
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

  async run(item: QueueItem, backend: Backend, signal: AbortSignal, etaSeconds: number): Promise<JobOutcome> {
    const { repo, board } = this.deps;
    const row = await repo.findJob(item.jobId);
    if (!row) return 'failed';
    const payload = JSON.parse(row.payload) as JobPayload;
    const kept = await this.deps.works.listByJob(row.id);
    if (kept.length >= row.image_count) {
      await this.settle(row, 'succeeded', kept.length, null);
      return 'succeeded';
    }
    const now = nowIso();
    await repo.updateJob(row.id, {
      status: 'running',
      started_at: now,
      backend_id: backend.id,
      attempts: item.attempts,
    });
    await repo.updateGeneration(row.generation_id, { status: 'running', updated_at: now });
    board.running(row.generation_id, row.id, etaSeconds);

    const job = await this.engineJob(row.user_id, payload, remainingBatch(payload, row.image_count, kept));
    const result = await backend.engine.run(job, {
      signal,
      onProgress: (p) => board.progress(row.generation_id, row.id, p),
    });
    let produced = kept.length;
    for (const image of result.images) {
      // The image being painted when the job was stopped is unfinished: only whole images become works.
      if (image.interrupted) continue;
      try {
        await this.keep(row, payload, backend.name, image);
      } catch (err) {
        if (!isDiskFull(err)) throw err;
        this.deps.log.error({ err, jobId: row.id }, 'storage full while keeping a generated image');
        const refund = produced > 0 ? '已完成的图片已保留，其余算力已退回' : '本次预扣的算力已退回';
        await this.settle(row, 'failed', produced, `${DISK_FULL_MESSAGE}；${refund}`);
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
      await this.settle(row, 'interrupted', produced, produced > 0 ? '已中断，完成的图片已保留' : '已中断');
      return 'interrupted';
    }
    if (produced === 0) {
      await this.settle(row, 'failed', 0, '推理后端没有返回图片，本次预扣的算力已退回');
      return 'failed';
    }
    await this.settle(row, 'succeeded', produced, null);
    return 'succeeded';
  }

  /** One finished image becomes a work; when that fails, its files go too, so nothing half-kept remains. */
  private async keep(row: JobRow, payload: JobPayload, backendName: string, image: EngineImage): Promise<void> {
    const workId = newId();
    const files = await storeWorkFiles(this.deps.storage, workId, image.png).catch(async (err: unknown) => {
      await this.removeWorkFiles(workId);
      throw err;
    });
    try {
      await this.deps.works.insert({
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
      });
    } catch (err) {
      await this.removeWorkFiles(workId);
      throw err;
    }
    this.deps.board.addImages(row.generation_id, row.id, [
      generatedImage({ id: workId, width: image.width, height: image.height, seed: image.seed }, this.deps.signer),
    ]);
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
  private async settle(row: JobRow, status: GenerationStatus, produced: number, message: string | null): Promise<void> {
    const perImage = row.image_count > 0 ? row.cost / row.image_count : 0;
    const refund = Math.max(0, Math.round(row.cost - perImage * produced));
    const now = nowIso();
    const write = () =>
      this.deps.db.transaction().execute(async (trx) => {
        const current = await this.deps.repo.findJob(row.id, trx);
        // Settled already (a retry racing a write that did land): credits go back once.
        if (current?.status !== 'queued' && current?.status !== 'running') return;
        await this.deps.repo.updateJob(row.id, { status, produced, refunded: refund, message, finished_at: now }, trx);
        await this.deps.credits.refund(trx, row.user_id, refund);
        const generation = await this.deps.repo.findGeneration(row.generation_id, trx);
        if (generation?.current_job_id === row.id) {
          await this.deps.repo.updateGeneration(row.generation_id, { status, updated_at: now }, trx);
        }
      });
    await write().catch((err: unknown) => this.retrySettle(row.id, write, err));
    this.deps.board.finished(row.generation_id, row.id, status, message);
  }

  private retrySettle(jobId: string, write: () => Promise<void>, err: unknown): void {
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

  async fail(item: QueueItem, message: string): Promise<void> {
    const row = await this.deps.repo.findJob(item.jobId);
    if (row) await this.settle(row, 'failed', (await this.deps.works.listByJob(row.id)).length, message);
  }

  /** Interrupt of a job still waiting: nothing was produced, everything goes back. */
  async cancelWaiting(jobId: string): Promise<void> {
    const row = await this.deps.repo.findJob(jobId);
    if (row) await this.settle(row, 'interrupted', 0, '已取消排队');
  }

  async requeueAfterFailure(item: QueueItem, reason: string): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, attempts: item.attempts });
    this.deps.board.requeued(item.generateId, item.jobId, `推理后端出错（${reason}），正在换一台重试…`);
  }

  async requeueForRestart(item: QueueItem): Promise<void> {
    await this.deps.repo.updateJob(item.jobId, { status: 'queued', backend_id: null, started_at: null });
    await this.deps.repo.updateGeneration(item.generateId, { status: 'queued', updated_at: nowIso() });
    this.deps.board.requeued(item.generateId, item.jobId, '服务重启中，任务将在重启后继续');
  }

  /**
   * A job a previous process left unfinished waits again. One it left running (a crash) or put back in line with
   * images kept (a shutdown) shows those images and paints only the rest; it is never failed for the restart.
   */
  async recover(row: JobRow): Promise<QueueItem> {
    const item = queueItemOf(row);
    const { board, signer } = this.deps;
    board.queued(row.user_id, {
      generateId: row.generation_id,
      jobId: row.id,
      stepNum: row.step_num,
      stepIndex: row.step_index,
    });
    const kept = await this.deps.works.listByJob(row.id);
    board.addImages(
      row.generation_id,
      row.id,
      kept.map((work) => generatedImage(work, signer)),
    );
    if (row.status === 'running') {
      await this.deps.repo.updateJob(row.id, { status: 'queued', backend_id: null, started_at: null });
      await this.deps.repo.updateGeneration(row.generation_id, { status: 'queued', updated_at: nowIso() });
      board.requeued(
        row.generation_id,
        row.id,
        kept.length > 0 ? '服务重启后继续生成其余图片，已完成的图片已保留' : '服务重启后重新排队',
      );
    }
    this.deps.log.info({ jobId: row.id }, 'generation job recovered after restart');
    return item;
  }
}
