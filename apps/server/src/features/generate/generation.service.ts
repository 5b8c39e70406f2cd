import {
  FREE_CREATION_FORM,
  type GenerateResult,
  type generateBodySchema,
  type generateStepBodySchema,
  type PredictResult,
  type PromptGroupItem,
  type TaskStep,
} from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import { buildPromptText } from '../../engines/engine.js';
import type { Database } from '../../platform/db/database.js';
import { fail } from '../../platform/errors.js';
import { newId, nowIso } from '../../platform/ids.js';
import { isRedisUnavailable } from '../../platform/redis/redis.js';
import type { AuditOrigin, AuditRecorder } from '../audit/audit-recorder.js';
import type { BackendPool } from '../backends/backend-pool.js';
import type { CreditService } from '../credits/credit.service.js';
import type { FileService } from '../files/file.service.js';
import type { ModelService } from '../models/model.service.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import type { TemplateService, Viewer } from '../template/template.service.js';
import type { WorkRepository, WorkRow } from '../works/work.repository.js';
import type { GenerationRepository } from './generation.repository.js';
import { ownGeneration } from './generation-tracking.js';
import { costOf, type JobPayload, workUnits } from './job-payload.js';
import type { JobQueue } from './job-queue.js';
import { checkParameters } from './parameter-check.js';
import type { ProgressStore } from './progress-store.js';

type GenerateBody = z.output<typeof generateBodySchema>;
type StepBody = z.output<typeof generateStepBodySchema>;

type Prepared = {
  payload: JobPayload;
  cost: number;
  promptGroup: PromptGroupItem[];
  negativePromptGroup: PromptGroupItem[];
};

const FREE_CREATION_NAME = '自由创作';
const STEP_IN_PROGRESS = '当前步骤还在生成中，请等待完成后再进行下一步';

/** The texts of a prompt group the filter reads: each word's label and the prompt text (often its translation). */
const textsOf = (group: PromptGroupItem[], custom: boolean) =>
  group.filter((item) => (item.custom === '1') === custom).flatMap((item) => [item.groupName, item.promptText]);

/** Spec §7 Generation: predict, submit and the next step (GenerationTracking follows them afterwards). */
export class GenerationService {
  constructor(
    private readonly deps: {
      db: Database;
      repo: GenerationRepository;
      templates: TemplateService;
      models: ModelService;
      files: FileService;
      works: WorkRepository;
      credits: CreditService;
      pool: BackendPool;
      queue: JobQueue;
      board: ProgressStore;
      words: SensitiveWordFilter;
      audit: AuditRecorder;
      log: FastifyBaseLogger;
    },
  ) {}

  private async templateStep(viewer: Viewer, templateId: string, stepIndex: number) {
    const detail = await this.deps.templates.detail(viewer, templateId);
    const step = detail.taskStepList.find((s) => s.stepIndex === stepIndex) ?? detail.taskStepList[stepIndex];
    if (!step) throw fail(`模板「${detail.name}」没有第 ${stepIndex + 1} 步`);
    return { detail, step };
  }

  /** Checks a run and fixes everything it needs; throws a -1 naming the field on bad input. */
  private async prepare(
    viewer: Viewer,
    input: {
      templateId: string | null;
      stepIndex: number;
      promptGroup: PromptGroupItem[] | undefined;
      negativePromptGroup: PromptGroupItem[] | undefined;
      parameters: Record<string, unknown>;
      parentWork?: WorkRow;
    },
  ): Promise<Prepared> {
    let step: TaskStep | null = null;
    let templateName = FREE_CREATION_NAME;
    if (input.templateId) {
      const found = await this.templateStep(viewer, input.templateId, input.stepIndex);
      step = found.step;
      templateName = found.detail.name;
    }
    const promptGroup = input.promptGroup ?? step?.promptGroup ?? [];
    const negativePromptGroup = input.negativePromptGroup ?? step?.negativePromptGroup ?? [];
    // Before anything is reserved or queued: a refused run costs nothing.
    const { words } = this.deps;
    await words.assertClean('customWord', ...textsOf(promptGroup, true), ...textsOf(negativePromptGroup, true));
    await words.assertClean('prompt', ...textsOf(promptGroup, false));
    await words.assertClean('negativePrompt', ...textsOf(negativePromptGroup, false));
    const mode = step?.generateMode ?? 'txt2img';
    const useParent = Boolean(input.parentWork && (step?.useParentImage || mode !== 'txt2img'));
    const { models, files } = this.deps;
    const parameters = await checkParameters(
      step?.formConfig ?? FREE_CREATION_FORM,
      step?.parameters ?? {},
      input.parameters,
      {
        userId: viewer.id,
        modelEnabled: async (id) => (await models.find(id))?.enabled === true,
        defaultModelId: async (groups) => {
          const menu = await models.menu('enabled');
          const chosen = menu.filter((g) => groups.length === 0 || groups.includes(g.id) || groups.includes(g.name));
          return chosen.flatMap((g) => g.models)[0]?.id ?? null;
        },
        requireOwnFile: async (fileId, label) => {
          await files.requireOwned(viewer.id, fileId, label);
        },
      },
      mode !== 'txt2img' && !useParent,
    );
    // An upscale paints one image from one input, whatever the batch field says.
    if (mode === 'upscale') parameters.batchSize = 1;
    const model = await models.find(parameters.modelId);
    if (!model) throw fail('模型不存在或已停用');
    if (!(await this.deps.pool.hasCandidate(model.engine, model.checkpoint))) {
      throw fail(`当前没有可用的推理后端支持模型「${model.modelName}」，请联系管理员`);
    }
    const prompt = buildPromptText(promptGroup);
    if (!prompt && mode === 'txt2img') throw fail('请至少添加一个提示词');
    const payload: JobPayload = {
      templateId: input.templateId,
      templateName,
      templateStepId: step?.id ?? null,
      stepIndex: step?.stepIndex ?? 0,
      mode,
      prompt,
      negativePrompt: buildPromptText(negativePromptGroup),
      parameters,
      engineKind: model.engine,
      checkpoint: model.checkpoint,
      initImage: useParent
        ? { kind: 'work', id: input.parentWork!.id }
        : parameters.initImageFileId
          ? { kind: 'file', id: parameters.initImageFileId }
          : null,
    };
    return { payload, cost: costOf(parameters, mode), promptGroup, negativePromptGroup };
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
    const { payload, cost } = await this.prepare(viewer, this.fromBody(body));
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
    prepared: Prepared,
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
      await repo.insertPromptHistory(
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
        modelId: payload.parameters.modelId,
        checkpoint: payload.checkpoint,
        engine: payload.engineKind,
        imageCount: payload.parameters.batchSize,
        cost,
      },
    });
  }

  async submit(viewer: Viewer, body: GenerateBody, origin: AuditOrigin): Promise<GenerateResult> {
    const prepared = await this.prepare(viewer, this.fromBody(body));
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
    const prepared = await this.prepare(viewer, {
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
