import { z } from 'zod';

export const engineKindSchema = z.enum(['builtin', 'sdwebui', 'comfyui'], { error: '推理引擎类型不正确' });

export const artModelSchema = z.object({
  id: z.string(),
  modelName: z.string(),
  cover: z.string().nullable(),
  baseModel: z.string(),
  engine: engineKindSchema,
  /** Checkpoint name on the inference backend. */
  checkpoint: z.string(),
  enabled: z.boolean(),
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
  modelName: z.string({ error: '请填写模型名称' }).trim().min(1, '请填写模型名称').max(40, '模型名称不能超过 40 个字'),
  cover: z.string().max(200).nullable().optional(),
  baseModel: z
    .string({ error: '请填写基础模型' })
    .trim()
    .min(1, '请填写基础模型')
    .max(20, '基础模型不能超过 20 个字符'),
  engine: engineKindSchema,
  checkpoint: z.string({ error: '请填写后端模型名' }).trim().min(1, '请填写后端模型名').max(200, '后端模型名过长'),
  enabled: z.boolean().default(true),
});
export type ModelBody = z.infer<typeof modelBodySchema>;

export const modelGroupBodySchema = z.object({
  name: z.string({ error: '请填写分组名称' }).trim().min(1, '请填写分组名称').max(20, '分组名称不能超过 20 个字'),
});
