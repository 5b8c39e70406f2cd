import type { GenerationStatus } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { EngineControlNet, EngineJob } from '../../engines/engine.js';
import type { Database } from '../../platform/db/database.js';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { readBytes, type Storage } from '../../platform/storage/storage.js';
import type { UrlSigner } from '../../platform/url-signer.js';
import type { Backend } from '../backends/backend-registry.js';
import type { CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { WorkRepository } from '../works/work.repository.js';
import { generatedImage, storeWorkFiles } from '../works/work-files.js';
import type { GenerationRepository, JobRow } from './generation.repository.js';
import type { QueueItem } from './generation-queue.js';
import { INTERRUPT, SHUTDOWN } from './generation-queue.js';
import { type ImageSource, type JobPayload, workUnits } from './job-payload.js';
import type { ProgressBoard } from './progress-board.js';

export type JobOutcome = 'succeeded' | 'interrupted' | 'failed' | 'requeue';

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

  private async image(userId: string, source: ImageSource): Promise<Buffer> {
    if (source.kind === 'file') return this.deps.files.readOwned(userId, source.id, '输入图片');
    const work = await this.deps.works.findOwned(userId, source.id);
    const stream = work ? await this.deps.storage.read(work.image_key) : null;
    if (!stream) throw fail('所选图片已不存在');
    return readBytes(stream);
  }

  private async engineJob(userId: string, payload: JobPayload): Promise<EngineJob> {
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
      seed: p.seed,
      batchSize: p.batchSize,
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
    const now = nowIso();
    await repo.updateJob(row.id, {
      status: 'running',
      started_at: now,
      backend_id: backend.id,
      attempts: item.attempts,
    });
    await repo.updateGeneration(row.generation_id, { status: 'running', updated_at: now });
    board.running(row.generation_id, row.id, etaSeconds);

    const job = await this.engineJob(row.user_id, payload);
    const result = await backend.engine.run(job, {
      signal,
      onProgress: (p) => board.progress(row.generation_id, row.id, p),
    });
    if (signal.reason === SHUTDOWN && result.images.every((image) => image.interrupted)) {
      await this.requeueForRestart(item);
      return 'requeue';
    }
    let produced = 0;
    for (const image of result.images) {
      // The image being painted when the job was stopped is unfinished: only whole images become works.
      if (image.interrupted) continue;
      const workId = newId();
      const files = await storeWorkFiles(this.deps.storage, workId, image.png);
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
        backend: backend.name,
        image_key: files.imageKey,
        thumb_key: files.thumbKey,
        public: 0,
        views: 0,
        created_at: nowIso(),
      });
      produced++;
      board.addImages(row.generation_id, row.id, [
        generatedImage({ id: workId, width: image.width, height: image.height, seed: image.seed }, this.deps.signer),
      ]);
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

  /** Final state of a job: status, the credits of images not produced given back, the generation updated. */
  private async settle(row: JobRow, status: GenerationStatus, produced: number, message: string | null): Promise<void> {
    const perImage = row.image_count > 0 ? row.cost / row.image_count : 0;
    const refund = Math.max(0, Math.round(row.cost - perImage * produced));
    const now = nowIso();
    await this.deps.db.transaction().execute(async (trx) => {
      await this.deps.repo.updateJob(row.id, { status, produced, refunded: refund, message, finished_at: now }, trx);
      await this.deps.credits.refund(trx, row.user_id, refund);
      const generation = await this.deps.repo.findGeneration(row.generation_id, trx);
      if (generation?.current_job_id === row.id) {
        await this.deps.repo.updateGeneration(row.generation_id, { status, updated_at: now }, trx);
      }
    });
    this.deps.board.finished(row.generation_id, row.id, status, message);
  }

  async fail(item: QueueItem, message: string): Promise<void> {
    const row = await this.deps.repo.findJob(item.jobId);
    if (row) await this.settle(row, 'failed', row.produced, message);
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
   * A job a previous process left unfinished: a queued one waits again; a running one starts over if it had
   * not stored any image yet, otherwise it ends with the images it has (never left hanging).
   */
  async recover(row: JobRow): Promise<QueueItem | null> {
    const item = queueItemOf(row);
    this.deps.board.queued(row.user_id, {
      generateId: row.generation_id,
      jobId: row.id,
      stepNum: row.step_num,
      stepIndex: row.step_index,
    });
    if (row.status === 'running') {
      const stored = (await this.deps.works.listByJob(row.id)).length;
      if (stored > 0) {
        await this.settle(row, 'failed', stored, '服务重启，任务未能完成；已完成的图片已保留，其余算力已退回');
        return null;
      }
      await this.deps.repo.updateJob(row.id, { status: 'queued', backend_id: null, started_at: null });
      this.deps.board.requeued(row.generation_id, row.id, '服务重启后重新排队');
    }
    this.deps.log.info({ jobId: row.id }, 'generation job recovered after restart');
    return item;
  }
}
