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

/** The zone every date in the product is shown in (DISPLAY_TIME_ZONE on the server, Asia/Shanghai by default). */
export const DEFAULT_DISPLAY_TIME_ZONE = 'Asia/Shanghai';

/** GET /api/app/configs/display (no login): how the web shows dates. */
export const displayConfigSchema = z.object({ timeZone: z.string() });
export type DisplayConfig = z.infer<typeof displayConfigSchema>;
