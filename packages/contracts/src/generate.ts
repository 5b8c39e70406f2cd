import { z } from 'zod';
import { idOf } from './fields.js';

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
