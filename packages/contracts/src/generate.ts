import { z } from 'zod';
import { displayNameOf, idOf } from './fields.js';
import { pictureFields } from './files.js';
import { parametersSchema } from './form-config.js';
import { fenSchema, payChannelInfoSchema } from './payments.js';
import { promptGroupSchema } from './prompt.js';

/** POST /api/generate/task/controlnet/preview: the preprocessed map of an uploaded reference image. */
export const controlnetPreviewBodySchema = z.object({
  fileId: idOf('参考图'),
  controlnetModule: z.string({ error: '请选择预处理器' }).trim().min(1, '请选择预处理器').max(64, '预处理器名称过长'),
  processorRes: z
    .number()
    .int('预处理分辨率须为整数')
    .min(64, '预处理分辨率不能小于 64')
    .max(2048, '预处理分辨率不能超过 2048')
    .optional(),
  thresholdA: z.number().min(1, '低阈值须在 1–255 之间').max(255, '低阈值须在 1–255 之间').optional(),
  thresholdB: z.number().min(1, '高阈值须在 1–255 之间').max(255, '高阈值须在 1–255 之间').optional(),
});
export type ControlnetPreviewBody = z.infer<typeof controlnetPreviewBodySchema>;

export const generationStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'interrupted']);
export type GenerationStatus = z.infer<typeof generationStatusSchema>;
export const GENERATION_STATUS_LABELS: Record<GenerationStatus, string> = {
  queued: '排队中',
  running: '生成中',
  succeeded: '已完成',
  failed: '生成失败',
  interrupted: '已中断',
};
/** A generation in one of these states holds a place in the queue or a backend. */
export const UNFINISHED_STATUSES: readonly GenerationStatus[] = ['queued', 'running'];

/** Which step of the template a request runs, counted from 0. */
const stepIndexSchema = z.number({ error: '步骤序号须为数字' }).int('步骤序号须为整数').min(0, '步骤序号不能为负数');

/**
 * POST /api/generate/task and /predict. `templateId` null is 自由创作 (/chuangyi): the parameters are then
 * checked against FREE_CREATION_FORM instead of a template step's form config.
 */
export const generateBodySchema = z.object({
  templateId: z.string().max(64, '模板编号格式不正确').nullable().default(null),
  stepIndex: stepIndexSchema.default(0),
  promptGroup: promptGroupSchema.default([]),
  negativePromptGroup: promptGroupSchema.default([]),
  parameters: parametersSchema.default({}),
});
export type GenerateBody = z.input<typeof generateBodySchema>;

/** Where a job stands in the user's line: 1 = next to run (0 once running or done), and the seconds to wait. */
const queueStandingFields = {
  queuePosition: z.number().int(),
  etaSeconds: z.number().int(),
};

export const predictResultSchema = z.object({
  /** Credits this run reserves. */
  cost: z.number().int(),
  /** The user's credits now. */
  credits: z.number().int(),
  ...queueStandingFields,
});
export type PredictResult = z.infer<typeof predictResultSchema>;

export const generateResultSchema = z.object({
  generateId: z.string(),
  currentStepId: z.string(),
  currentStepNum: z.number().int(),
});
export type GenerateResult = z.infer<typeof generateResultSchema>;

export const generateIdBodySchema = z.object({ generateId: idOf('生成任务') });

/** POST /api/generate/task/step: the next template step on a chosen result (next-draw). */
export const generateStepBodySchema = z.object({
  generateId: idOf('生成任务'),
  imageWorkId: idOf('所选图片'),
  stepIndex: stepIndexSchema,
  promptGroup: promptGroupSchema.optional(),
  negativePromptGroup: promptGroupSchema.optional(),
  parameters: parametersSchema.optional(),
});
export type GenerateStepBody = z.input<typeof generateStepBodySchema>;

export const generatedImageSchema = z.object({
  workId: z.string(),
  ...pictureFields,
  seed: z.number(),
});
export type GeneratedImage = z.infer<typeof generatedImageSchema>;

export const generationProgressSchema = generateResultSchema.extend({
  status: generationStatusSchema,
  /** 0–100 of the current step. */
  progress: z.number(),
  ...queueStandingFields,
  previewUrl: z.string().nullable(),
  /** Chinese, e.g. why it failed. */
  message: z.string().nullable(),
  /** The template step the current job runs. */
  stepIndex: z.number().int(),
  /** The images of the current step. */
  images: z.array(generatedImageSchema),
});
export type GenerationProgress = z.infer<typeof generationProgressSchema>;

/** GET /api/generate/task/unfinish/task: the user's queued or running generation, so a reloaded page resumes. */
export const unfinishedGenerationSchema = z
  .object({
    generateId: z.string(),
    currentStepId: z.string(),
    currentStepNum: z.number().int(),
    templateId: z.string().nullable(),
    stepIndex: z.number().int(),
    status: generationStatusSchema,
  })
  .nullable();
export type UnfinishedGeneration = z.infer<typeof unfinishedGenerationSchema>;

/** GET /api/account/combo/store: the plans an admin configured, bought online (docs/payments.md) or by asking. */
export const comboPlanSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  credits: z.number().int(),
  /** In fen; shown with formatFen as ¥49.00. */
  priceFen: z.number().int(),
  /** Whether 套餐商店 sells it online (when a payment channel is configured). */
  purchasable: z.boolean(),
  /** Days its credits stay spendable after payment; null: they never expire. */
  validityDays: z.number().int().nullable(),
  features: z.array(z.string()),
  recommended: z.boolean(),
  enabled: z.boolean(),
  sort: z.number().int(),
});
export type ComboPlan = z.infer<typeof comboPlanSchema>;
export const comboStoreSchema = z.object({
  credits: z.number().int(),
  /** How to get a plan when no payment channel is configured (contact an admin); null when one is. */
  notice: z.string().nullable(),
  /** The payment channels configured, in the order to offer them; empty: no online payment. */
  channels: z.array(payChannelInfoSchema),
  plans: z.array(comboPlanSchema),
});
export type ComboStore = z.infer<typeof comboStoreSchema>;

export const comboPlanBodySchema = z.object({
  name: displayNameOf('套餐名称', 20),
  description: z.string().trim().max(200, '套餐说明不能超过 200 个字').default(''),
  credits: z
    .number({ error: '请填写算力点数' })
    .int('算力点数须为整数')
    .min(1, '算力点数至少为 1')
    .max(1_000_000, '算力点数不能超过 1000000'),
  priceFen: fenSchema,
  purchasable: z.boolean().default(true),
  /** Empty (null): 永久有效. */
  validityDays: z
    .number({ error: '有效期须为天数' })
    .int('有效期须为整数天')
    .min(1, '有效期至少 1 天')
    .max(3650, '有效期不能超过 3650 天')
    .nullable()
    .default(null),
  features: z.array(displayNameOf('每条权益', 30)).max(8, '权益最多 8 条').default([]),
  recommended: z.boolean().default(false),
  enabled: z.boolean().default(true),
  sort: z.number().int().min(0).max(999).default(0),
});
export type ComboPlanBody = z.input<typeof comboPlanBodySchema>;
