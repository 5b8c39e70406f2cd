import { z } from 'zod';
import { displayNameOf, idOf } from './fields.js';
import { engineKindSchema } from './model.js';
import { accessRuleSchema, modelFamilySchema } from './model-family.js';

const weightSchema = (label: string) =>
  z
    .number({ error: `${label}须为数字` })
    .min(-2, `${label}不能小于 -2`)
    .max(2, `${label}不能大于 2`);

/** A LoRA style as /draw's style picker shows it (GET /api/art/loras). */
export const loraStyleSchema = z.object({
  id: z.string(),
  /** Chinese display name, e.g. 水墨山水. */
  name: z.string(),
  /** The LoRA's name on the backend, as `<lora:name:weight>` and ComfyUI's `lora_name` take it. */
  loraName: z.string(),
  /** The tab of the picker, e.g. 国风. */
  styleGroup: z.string(),
  cover: z.string().nullable(),
  description: z.string(),
  family: modelFamilySchema,
  /** The inference engine it runs on: it suits only models of the same engine. */
  engine: engineKindSchema,
  /** Words the LoRA was trained on; picking the LoRA adds them to the prompt group as removable tags. */
  triggerWords: z.array(z.string()),
  defaultWeight: z.number(),
  minWeight: z.number(),
  maxWeight: z.number(),
  /** The user may not use it yet; `unlockHint` says how to get it (e.g. 购买「创作版」后可用). */
  locked: z.boolean(),
  unlockHint: z.string().nullable(),
});
export type LoraStyle = z.infer<typeof loraStyleSchema>;

/** The admin's view of a LoRA: everything the picker shows plus where it runs and who may use it. */
export const loraAdminSchema = loraStyleSchema.extend({
  engine: engineKindSchema,
  enabled: z.boolean(),
  sort: z.number().int(),
  access: accessRuleSchema,
  /** Names of the backends that report having it (from the last sync). */
  backends: z.array(z.string()),
  /** Short hash of the file when a backend reported one (A1111 metadata `sshs_model_hash`), for PNG info. */
  hash: z.string().nullable(),
});
export type LoraAdmin = z.infer<typeof loraAdminSchema>;

export const loraBodySchema = z
  .object({
    name: displayNameOf('风格名称', 40),
    loraName: z
      .string({ error: '请填写后端 LoRA 名' })
      .trim()
      .min(1, '请填写后端 LoRA 名')
      .max(200, '后端 LoRA 名过长'),
    engine: engineKindSchema,
    styleGroup: displayNameOf('风格分组', 20),
    cover: z.string().max(200).nullable().default(null),
    description: z.string().trim().max(200, '风格说明不能超过 200 个字').default(''),
    family: modelFamilySchema,
    triggerWords: z
      .array(z.string().trim().min(1, '触发词不能为空').max(60, '每个触发词不能超过 60 个字符'))
      .max(20, '触发词最多 20 个')
      .default([]),
    defaultWeight: weightSchema('默认权重').default(0.8),
    minWeight: weightSchema('最小权重').default(0),
    maxWeight: weightSchema('最大权重').default(1.5),
    enabled: z.boolean().default(true),
    sort: z.number().int().min(0).max(999).default(0),
    access: accessRuleSchema.default({ planIds: [] }),
  })
  .refine((body) => body.minWeight <= body.defaultWeight && body.defaultWeight <= body.maxWeight, {
    message: '默认权重须在最小权重和最大权重之间',
    path: ['defaultWeight'],
  });
export type LoraBody = z.input<typeof loraBodySchema>;

/** One LoRA a job uses: the `loras` parameter of /draw and of a template step. */
export const loraUseSchema = z.object({
  loraId: idOf('LoRA 风格'),
  weight: weightSchema('LoRA 权重'),
});
export type LoraUse = z.infer<typeof loraUseSchema>;
export const loraUsesSchema = z.array(loraUseSchema).max(5, '一次最多使用 5 个 LoRA 风格');

/** A model, LoRA or VAE a backend reports, as 同步 lists it (A1111 `/sdapi/v1/*`, ComfyUI `object_info`). */
export const backendAssetKindSchema = z.enum(['checkpoint', 'lora', 'vae']);
export type BackendAssetKind = z.infer<typeof backendAssetKindSchema>;
export const backendAssetSchema = z.object({
  kind: backendAssetKindSchema,
  /** What a job names it by (A1111 checkpoint `title` / LoRA `name`; ComfyUI file name). */
  title: z.string(),
  name: z.string(),
  /** A1111's short hash (10 hex) or sha256 prefix when the backend reports one. */
  hash: z.string().nullable(),
});
export type BackendAsset = z.infer<typeof backendAssetSchema>;

/** POST /api/admin/models/sync: what each enabled backend has now, stored per backend. */
export const modelSyncResultSchema = z.object({
  backends: z.array(
    z.object({
      backendId: z.string(),
      name: z.string(),
      ok: z.boolean(),
      /** Chinese, when the backend could not be read. */
      message: z.string().nullable(),
      checkpoints: z.number().int(),
      loras: z.number().int(),
      vaes: z.number().int(),
    }),
  ),
  /** LoRAs seen for the first time, added disabled for the admin to name and offer. */
  newLoras: z.number().int(),
});
export type ModelSyncResult = z.infer<typeof modelSyncResultSchema>;
