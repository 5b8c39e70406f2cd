import { z } from 'zod';
import { displayNameOf } from './fields.js';

export const agreementTypeSchema = z.enum(['privacy', 'service', 'questionnaire'], { error: '协议类型不正确' });
export type AgreementType = z.infer<typeof agreementTypeSchema>;

export const agreementSchema = z.object({ title: z.string(), content: z.string() });
export type Agreement = z.infer<typeof agreementSchema>;

export const agreementBodySchema = z.object({
  title: displayNameOf('标题', 100),
  content: z.string({ error: '请填写内容' }).trim().min(1, '请填写内容').max(50_000, '内容不能超过 50000 个字'),
});
