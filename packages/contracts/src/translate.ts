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

/** What the server's translation offers: 「AI 润色」 only where an LLM is configured (GET /api/translate/features). */
export const translateFeaturesSchema = z.object({ polish: z.boolean() });
export type TranslateFeatures = z.infer<typeof translateFeaturesSchema>;

/** POST /api/translate/polish: a short Chinese idea expanded by the LLM into a fuller prompt the user edits. */
export const polishBodySchema = z.object({
  text: z.string({ error: '请输入画面描述' }).trim().min(1, '请输入画面描述').max(500, '画面描述不能超过 500 个字符'),
});
/** `chinese`: the fuller idea in Chinese for the box; `english`: the same as a Stable Diffusion prompt. */
export const polishResultSchema = z.object({ chinese: z.string(), english: z.string() });
export type PolishResult = z.infer<typeof polishResultSchema>;
