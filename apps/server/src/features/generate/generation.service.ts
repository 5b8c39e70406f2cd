import type { GenerateResult, generateBodySchema, generateStepBodySchema, PredictResult } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Database } from '../../platform/db/database.js';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { isRedisUnavailable } from '../../platform/redis/redis.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { LoraService } from '../loras/lora.service.js';
import type { ModelService } from '../models/model.service.js';
import {
  ContentRefusal,
  MODERATED_FIELD_LABELS,
  type SensitiveWordFilter,
} from '../moderation/sensitive-word-filter.js';
import type { TemplateService, Viewer } from '../template/template.service.js';
import type { TranslateService } from '../translate/translate.service.js';
import type { WorkRepository } from '../works/work.repository.js';
import type { GenerationRepository } from './generation.repository.js';
import { ownGeneration } from './generation-tracking.js';
import { type JobPayload, workUnits } from './job-payload.js';
import { JobPreparation, type PreparedJob } from './job-preparation.js';
import type { JobQueue } from './job-queue.js';
import type { ProgressStore } from './progress-store.js';

type GenerateBody = z.output<typeof generateBodySchema>;
type StepBody = z.output<typeof generateStepBodySchema>;

const STEP_IN_PROGRESS = '当前步骤还在生成中，请等待完成后再进行下一步';

/** Spec §7 Generation: predict, submit and the next step (GenerationTracking follows them afterwards). */
export class GenerationService {
  private readonly preparation: JobPreparation;

  constructor(
    private readonly deps: {
      db: Database;
      repo: GenerationRepository;
      templates: TemplateService;
      models: ModelService;
      loras: LoraService;
      files: FileService;
      works: WorkRepository;
      credits: CreditService;
      pool: BackendPool;
      queue: JobQueue;
      board: ProgressStore;
      words: SensitiveWordFilter;
      translate: TranslateService;
      audit: AuditRecorder;
      log: FastifyBaseLogger;
    },
  ) {
    this.preparation = new JobPreparation(deps);
  }

  private fromBody(body: GenerateBody) {
    return {
      templateId: body.templateId,
      stepIndex: body.stepIndex,
      promptGroup: body.promptGroup,
      negativePromptGroup: body.negativePromptGroup,
      parameters: body.parameters,
    };
  }

  async predict(viewer: Viewer, body: GenerateBody): Promise<PredictResult> {
    const { payload, cost } = await this.preparation.prepare(viewer, this.fromBody(body), { translate: false });
    const standing = await this.deps.queue.predict(viewer.id, {
      units: workUnits(payload.parameters),
      engineKind: payload.engineKind,
      checkpoint: payload.checkpoint,
    });
    return { cost, credits: await this.deps.credits.balance(viewer.id), ...standing };
  }

  /** Counted in the database under the user's lock, so submits at once (or in other processes) cannot all fit. */
  private async checkQueueRoom(userId: string, trx: Database): Promise<void> {
    const { maxQueuedPerUser } = this.deps.queue.limits;
    if ((await this.deps.repo.queuedJobCount(userId, trx)) >= maxQueuedPerUser) {
      throw fail(`排队中的任务已达上限（${maxQueuedPerUser} 个），请等当前任务开始后再提交`);
    }
  }

  /**
   * Puts the job in line in one transaction with its rows and the prompt history: the user's queue room and credits,
   * and for a next step the generation itself, are claimed there so concurrent requests cannot share them.
   */
  private async enqueue(
    viewer: Viewer,
    prepared: PreparedJob,
    generation: { id: string; isNew: boolean; stepNum: number },
    origin: AuditOrigin,
  ): Promise<GenerateResult> {
    const { db, repo, credits, board, queue } = this.deps;
    const jobId = newId();
    const now = nowIso();
    const payload = { ...prepared.payload, origin };
    await queue.reachable();
    const charge = await db.transaction().execute(async (trx) => {
      await repo.lockUser(viewer.id, trx);
      if (!generation.isNew) {
        const claimed = await repo.claimForNextStep(
          generation.id,
          generation.stepNum - 1,
          {
            current_job_id: jobId,
            updated_at: now,
          },
          trx,
        );
        if (!claimed) throw fail(STEP_IN_PROGRESS);
      }
      await this.checkQueueRoom(viewer.id, trx);
      const change = await credits.reserve(viewer.id, prepared.cost, jobId, trx);
      if (generation.isNew) {
        await repo.insertGeneration(
          {
            id: generation.id,
            user_id: viewer.id,
            template_id: payload.templateId,
            template_name: payload.templateName,
            status: 'queued',
            current_job_id: jobId,
            job_count: 1,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
      }
      await repo.insertJob(
        {
          id: jobId,
          generation_id: generation.id,
          user_id: viewer.id,
          step_num: generation.stepNum,
          step_index: payload.stepIndex,
          template_step_id: payload.templateStepId,
          mode: payload.mode,
          status: 'queued',
          payload: JSON.stringify(payload),
          prompt_group: JSON.stringify(prepared.promptGroup),
          negative_prompt_group: JSON.stringify(prepared.negativePromptGroup),
          cost: prepared.cost,
          image_count: payload.parameters.batchSize,
          produced: 0,
          refunded: 0,
          attempts: 0,
          queued_at: now,
        },
        trx,
      );
      await repo.savePromptHistory(
        {
          id: newId(),
          user_id: viewer.id,
          generation_id: generation.id,
          prompt_group: JSON.stringify(prepared.promptGroup),
          negative_prompt_group: JSON.stringify(prepared.negativePromptGroup),
          pin: 0,
          created_at: now,
        },
        trx,
      );
      return change;
    });
    credits.recorded(charge, origin);
    this.recordSubmit(viewer.id, origin, generation.id, jobId, payload, prepared.cost);
    try {
      await board.queued(viewer.id, {
        generateId: generation.id,
        jobId,
        stepNum: generation.stepNum,
        stepIndex: payload.stepIndex,
      });
      await queue.add({
        jobId,
        generateId: generation.id,
        userId: viewer.id,
        engineKind: payload.engineKind,
        checkpoint: payload.checkpoint,
        loras: (payload.loras ?? []).map((lora) => lora.name),
        units: workUnits(payload.parameters),
        attempts: 0,
        tried: new Set(),
      });
    } catch (err) {
      // Redis went away after the commit: the job is recorded and the workers' sweep puts it in line once Redis
      // is back (progress answers 503 until then), so the submit stands.
      if (!isRedisUnavailable(err)) throw err;
      this.deps.log.warn({ err, jobId }, 'job recorded while Redis is away; the sweep queues it');
    }
    return { generateId: generation.id, currentStepId: jobId, currentStepNum: generation.stepNum };
  }

  /** generation.submit: what was asked for, before any image exists (the job's end is recorded by SettledJobAudit). */
  private recordSubmit(
    userId: string,
    origin: AuditOrigin,
    generateId: string,
    jobId: string,
    payload: JobPayload,
    cost: number,
  ): void {
    this.deps.audit.record({
      action: 'generation.submit',
      userId,
      origin,
      target: { type: 'generation', id: generateId },
      detail: {
        jobId,
        mode: payload.mode,
        templateName: payload.templateName,
        prompt: payload.prompt,
        negativePrompt: payload.negativePrompt,
        // What the user wrote, when the model read it translated: the trail keeps the user's own words.
        ...(payload.sourcePrompt ? { sourcePrompt: payload.sourcePrompt } : {}),
        ...(payload.sourceNegativePrompt ? { sourceNegativePrompt: payload.sourceNegativePrompt } : {}),
        modelId: payload.parameters.modelId,
        checkpoint: payload.checkpoint,
        engine: payload.engineKind,
        imageCount: payload.parameters.batchSize,
        cost,
      },
    });
  }

  /**
   * The preparation of a submit or next step; a prompt the word list refuses goes into the trail as
   * moderation.refused, naming the user and the template (or 自由创作), before the refusal is answered.
   */
  private async prepareRecorded(
    viewer: Viewer,
    origin: AuditOrigin,
    input: Parameters<JobPreparation['prepare']>[1],
  ): Promise<PreparedJob> {
    try {
      return await this.preparation.prepare(viewer, input);
    } catch (error) {
      if (error instanceof ContentRefusal) {
        const words = (group: typeof input.promptGroup) => (group ?? []).map((item) => item.promptText).join(', ');
        this.deps.audit.record({
          action: 'moderation.refused',
          userId: viewer.id,
          origin,
          target: input.templateId ? { type: 'template', id: input.templateId } : undefined,
          detail: {
            field: MODERATED_FIELD_LABELS[error.field],
            prompt: words(input.promptGroup),
            negativePrompt: words(input.negativePromptGroup),
          },
        });
      }
      throw error;
    }
  }

  async submit(viewer: Viewer, body: GenerateBody, origin: AuditOrigin): Promise<GenerateResult> {
    const prepared = await this.prepareRecorded(viewer, origin, this.fromBody(body));
    return this.enqueue(viewer, prepared, { id: newId(), isNew: true, stepNum: 1 }, origin);
  }

  /** Next-draw: the template's next step on one of the results, in the same generation. */
  async step(viewer: Viewer, body: StepBody, origin: AuditOrigin): Promise<GenerateResult> {
    const generation = await ownGeneration(this.deps.repo, viewer.id, body.generateId);
    if (generation.status === 'queued' || generation.status === 'running') throw fail(STEP_IN_PROGRESS);
    if (!generation.template_id) throw fail('自由创作没有下一步，请直接重新生成');
    const parentWork = await this.deps.works.findOwned(viewer.id, body.imageWorkId);
    if (!parentWork || parentWork.generation_id !== generation.id)
      throw fail('所选图片不存在，请从本次生成的结果中选择');
    const prepared = await this.prepareRecorded(viewer, origin, {
      templateId: generation.template_id,
      stepIndex: body.stepIndex,
      promptGroup: body.promptGroup,
      negativePromptGroup: body.negativePromptGroup,
      parameters: body.parameters ?? {},
      parentWork,
    });
    return this.enqueue(
      viewer,
      prepared,
      { id: generation.id, isNew: false, stepNum: generation.job_count + 1 },
      origin,
    );
  }
}
