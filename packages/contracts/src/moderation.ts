import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { displayNameOf, idOf } from './fields.js';

/**
 * 敏感词库 (admin): the word list every user text is checked against before the service acts on it or shows it.
 * docs/compliance.md § 内容安全 says which texts are checked and what the user is told.
 */

export const SENSITIVE_WORD_MAX = 50;
export const SENSITIVE_CATEGORY_MAX = 20;
/** The category of a word added or imported without one. */
export const DEFAULT_SENSITIVE_CATEGORY = '其他';
/** Most words one add or import request takes. */
export const SENSITIVE_WORD_BATCH_MAX = 1000;
export const SENSITIVE_WORD_IMPORT_MAX = 20_000;
/** Characters of an import text: a 20 000-line list fits, and the JSON body stays under the server's 1 MiB limit. */
export const SENSITIVE_IMPORT_TEXT_MAX = 300_000;

export const sensitiveWordTextSchema = displayNameOf('敏感词', SENSITIVE_WORD_MAX);
/** A colon separates category and word in import and export lines (`分类:词`), so a category holds none. */
export const sensitiveCategorySchema = displayNameOf('分类', SENSITIVE_CATEGORY_MAX).refine(
  (category) => !/[:：]/.test(category),
  '分类不能包含冒号',
);

export const sensitiveWordSchema = z.object({
  id: z.string(),
  word: z.string(),
  category: z.string(),
  createdAt: z.string(),
});
export type SensitiveWord = z.infer<typeof sensitiveWordSchema>;
export const sensitiveWordPageSchema = pageSchema(sensitiveWordSchema);

/**
 * GET /api/admin/sensitive-words: newest first. `keyword` finds words containing it the way the filter compares
 * text (spaces, full-width and traditional characters do not matter); `category` keeps one category.
 */
export const sensitiveWordQuerySchema = z.object({
  ...pagingFields(20),
  category: z.string().trim().max(SENSITIVE_CATEGORY_MAX, `分类不能超过 ${SENSITIVE_CATEGORY_MAX} 个字`).optional(),
  keyword: z.string().trim().max(SENSITIVE_WORD_MAX, `关键词不能超过 ${SENSITIVE_WORD_MAX} 个字`).optional(),
});
export type SensitiveWordQuery = z.infer<typeof sensitiveWordQuerySchema>;

/** GET /api/admin/sensitive-words/categories: every category in use, with its number of words. */
export const sensitiveCategoryCountSchema = z.object({ category: z.string(), count: z.number().int() });
export type SensitiveCategoryCount = z.infer<typeof sensitiveCategoryCountSchema>;

/** POST /api/admin/sensitive-words: one or many words into one category. */
export const sensitiveWordAddBodySchema = z.object({
  words: z
    .array(sensitiveWordTextSchema, { error: '请填写敏感词' })
    .min(1, '请填写敏感词')
    .max(SENSITIVE_WORD_BATCH_MAX, `一次最多添加 ${SENSITIVE_WORD_BATCH_MAX} 个敏感词`),
  category: sensitiveCategorySchema.default(DEFAULT_SENSITIVE_CATEGORY),
});
export type SensitiveWordAddBody = z.input<typeof sensitiveWordAddBodySchema>;

/**
 * Answer of add and import: `skipped` counts words already in the list, or given twice, once compared the way the
 * filter compares (虐杀 and 虐殺 are one word).
 */
export const sensitiveWordAddResultSchema = z.object({ added: z.number().int(), skipped: z.number().int() });
export type SensitiveWordAddResult = z.infer<typeof sensitiveWordAddResultSchema>;

/** DELETE /api/admin/sensitive-words: answers 删除成功. */
export const sensitiveWordDeleteBodySchema = z.object({
  ids: z
    .array(idOf('敏感词编号'), { error: '请选择要删除的敏感词' })
    .min(1, '请选择要删除的敏感词')
    .max(SENSITIVE_WORD_BATCH_MAX, `一次最多删除 ${SENSITIVE_WORD_BATCH_MAX} 个敏感词`),
});

/**
 * POST /api/admin/sensitive-words/import: one word a line; a line `分类:词` (or with a full-width colon) names its
 * category, other lines take `category` (else 其他). Blank lines are ignored; a bad line refuses the whole import
 * with its line number. Answers 导入成功 with the counts.
 */
export const sensitiveWordImportBodySchema = z.object({
  text: z
    .string({ error: '请填写要导入的敏感词' })
    .max(SENSITIVE_IMPORT_TEXT_MAX, `导入内容不能超过 ${SENSITIVE_IMPORT_TEXT_MAX} 个字`),
  category: sensitiveCategorySchema.optional(),
});
export type SensitiveWordImportBody = z.infer<typeof sensitiveWordImportBodySchema>;

/** GET /api/admin/sensitive-words/export: a text/plain download of `分类:词` lines, which import reads back. */
export const sensitiveWordExportQuerySchema = z.object({
  category: z.string().trim().max(SENSITIVE_CATEGORY_MAX, `分类不能超过 ${SENSITIVE_CATEGORY_MAX} 个字`).optional(),
});
