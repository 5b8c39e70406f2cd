import { z } from 'zod';
import { ENGINE_KIND_IDS } from './engine-kinds.js';
import { displayNameOf } from './fields.js';
import { accessRuleSchema, modelFamilySchema } from './model-family.js';

export const engineKindSchema = z.enum(ENGINE_KIND_IDS, { error: '推理引擎类型不正确' });

export const artModelSchema = z.object({
  id: z.string(),
  modelName: z.string(),
  cover: z.string().nullable(),
  baseModel: z.string(),
  engine: engineKindSchema,
  /** Checkpoint name on the inference backend. */
  checkpoint: z.string(),
  enabled: z.boolean(),
  /** The model reads Chinese prompts (Kolors, Hunyuan-DiT, Qwen-Image); others get them translated to English. */
  chinesePrompts: z.boolean(),
  /** 底模 family: sets the sizes it draws and which LoRAs fit it. */
  family: modelFamilySchema,
  access: accessRuleSchema,
  /** The user may not use it yet; `unlockHint` says how to get it. Always false in the admin's lists. */
  locked: z.boolean(),
  unlockHint: z.string().nullable(),
  /** The admin's list only (scope `all`): names of the enabled backends that serve it. */
  backends: z.array(z.string()).optional(),
});
export type ArtModel = z.infer<typeof artModelSchema>;

export const modelGroupSchema = z.object({
  id: z.string(),
  name: z.string(),
  models: z.array(artModelSchema),
});
export type ModelGroup = z.infer<typeof modelGroupSchema>;

export const modelMenuQuerySchema = z.object({ scope: z.enum(['all', 'enabled']).default('enabled') });

export const modelBodySchema = z.object({
  groupId: z.string({ error: '请选择模型分组' }).min(1, '请选择模型分组'),
  modelName: displayNameOf('模型名称', 40),
  cover: z.string().max(200).nullable().optional(),
  baseModel: displayNameOf('基础模型', 20),
  engine: engineKindSchema,
  checkpoint: z.string({ error: '请填写后端模型名' }).trim().min(1, '请填写后端模型名').max(200, '后端模型名过长'),
  enabled: z.boolean().default(true),
  chinesePrompts: z.boolean().default(false),
  family: modelFamilySchema.default('SD1.5'),
  access: accessRuleSchema.default({ planIds: [] }),
});
export type ModelBody = z.infer<typeof modelBodySchema>;

export const modelGroupBodySchema = z.object({
  name: displayNameOf('分组名称', 20),
});

/** A checkpoint a backend reports (A1111 `/sdapi/v1/sd-models`, ComfyUI `CheckpointLoaderSimple.ckpt_name`). */
export const backendCheckpointSchema = z.object({
  /** What a model's `checkpoint` names. */
  title: z.string(),
  /** A readable name, the default model name on import. */
  name: z.string(),
  /** Some model of the backend's engine already uses this checkpoint. */
  registered: z.boolean(),
});
export type BackendCheckpoint = z.infer<typeof backendCheckpointSchema>;

/** 从后端导入: the chosen checkpoints of one backend become models of one group (a model tab on the draw page). */
export const modelImportBodySchema = z.object({
  backendId: z.string({ error: '请选择推理后端' }).min(1, '请选择推理后端').max(64),
  checkpoints: z
    .array(z.string().trim().min(1).max(200, '后端模型名过长'), { error: '请选择要导入的模型' })
    .min(1, '请选择要导入的模型')
    .max(100, '一次最多导入 100 个模型'),
  groupId: z.string({ error: '请选择模型分组' }).min(1, '请选择模型分组').max(64),
  baseModel: displayNameOf('基础模型', 20),
  enabled: z.boolean().default(true),
});
export type ModelImportBody = z.input<typeof modelImportBodySchema>;

export const modelImportResultSchema = z.object({
  /** Models created. */
  created: z.number(),
  /** Checkpoints left out because a model of the engine already uses them. */
  skipped: z.number(),
});
export type ModelImportResult = z.infer<typeof modelImportResultSchema>;
