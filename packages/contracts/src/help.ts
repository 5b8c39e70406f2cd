import { z } from 'zod';
import { pageSchema } from './envelope.js';
import { idOf } from './fields.js';

export const helpTypeSchema = z.object({ id: z.string(), name: z.string() });
export type HelpType = z.infer<typeof helpTypeSchema>;

export const HELP_CONTENT_MAX = 1000;
export const helpBodySchema = z.object({
  typeId: idOf('问题类型'),
  content: z
    .string({ error: '请填写问题描述' })
    .trim()
    .min(5, '问题描述至少 5 个字')
    .max(HELP_CONTENT_MAX, `问题描述不能超过 ${HELP_CONTENT_MAX} 个字`),
  contact: z.string().trim().max(64, '联系方式不能超过 64 个字符').optional(),
});
export type HelpBody = z.infer<typeof helpBodySchema>;

export const helpRequestSchema = z.object({
  id: z.string(),
  typeName: z.string(),
  content: z.string(),
  contact: z.string().nullable(),
  userId: z.string(),
  userName: z.string().nullable(),
  createdAt: z.string(),
});
export type HelpRequest = z.infer<typeof helpRequestSchema>;
export const helpRequestPageSchema = pageSchema(helpRequestSchema);
