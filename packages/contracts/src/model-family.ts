import { z } from 'zod';

/**
 * Base-model families (底模): a LoRA fits only checkpoints of its family, and a checkpoint's family sets the sizes
 * it may draw (docs/models.md).
 */
export const MODEL_FAMILIES = ['SD1.5', 'SD2', 'SDXL', 'Pony', 'Illustrious', 'SD3', 'FLUX', 'Kolors', '其他'] as const;
export const modelFamilySchema = z.enum(MODEL_FAMILIES, { error: '基础模型类型不正确' });
export type ModelFamily = z.infer<typeof modelFamilySchema>;

/** The size a family draws by default, and the range of each side it may draw (multiples of 8). */
export const FAMILY_SIZES: Record<ModelFamily, { width: number; height: number; min: number; max: number }> = {
  'SD1.5': { width: 512, height: 512, min: 256, max: 1024 },
  SD2: { width: 768, height: 768, min: 256, max: 1280 },
  SDXL: { width: 1024, height: 1024, min: 512, max: 2048 },
  Pony: { width: 1024, height: 1024, min: 512, max: 2048 },
  Illustrious: { width: 1024, height: 1024, min: 512, max: 2048 },
  SD3: { width: 1024, height: 1024, min: 512, max: 2048 },
  FLUX: { width: 1024, height: 1024, min: 256, max: 2048 },
  Kolors: { width: 1024, height: 1024, min: 512, max: 2048 },
  其他: { width: 512, height: 512, min: 64, max: 2048 },
};

/**
 * Who may use a model or a LoRA: empty `planIds` is everyone; otherwise a user holding one of those plans (a paid
 * order whose credits have not expired). Admins may use everything.
 */
export const accessRuleSchema = z.object({
  planIds: z.array(z.string().max(64)).max(20, '最多选择 20 个套餐').default([]),
});
export type AccessRule = z.infer<typeof accessRuleSchema>;
