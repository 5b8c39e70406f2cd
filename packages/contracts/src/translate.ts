import { z } from 'zod';

/** POST /api/translate/zh2en: Chinese prompt words to English prompt text; prompt syntax is kept. */
export const translateBodySchema = z.object({
  text: z
    .string({ error: '请输入要翻译的内容' })
    .trim()
    .min(1, '请输入要翻译的内容')
    .max(1000, '翻译内容不能超过 1000 个字符'),
});
export const translateResultSchema = z.object({ text: z.string() });
export type TranslateResult = z.infer<typeof translateResultSchema>;
