import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { displayNameOf, hasVisibleCharacter } from './fields.js';

/** spec §3 prompt group item. `custom` "1" marks words typed by the user, "0" words from a template or the library. */
export const promptGroupItemSchema = z.object({
  id: z.string().max(64),
  groupName: z
    .string({ error: '提示词不能为空' })
    .trim()
    .min(1, '提示词不能为空')
    .max(200, '单个提示词不能超过 200 个字符')
    .refine(hasVisibleCharacter, '提示词不能只由不可见字符组成'),
  promptText: z.string().trim().max(400, '提示词文本不能超过 400 个字符'),
  /**
   * The English a model that reads only English gets for this word. Sent: the user's own (edited on /draw), used
   * instead of translating, Chinese left in it still translated. Answered: what the server translated it to.
   */
  english: z.string().trim().max(400, '英文提示词不能超过 400 个字符').optional(),
  custom: z.enum(['0', '1']).default('0'),
  /** 10 marks a negative item in the admin variant. */
  type: z.number().int().optional(),
  pin: z.union([z.literal(0), z.literal(1)]).optional(),
  showClose: z.boolean().optional(),
});
export type PromptGroupItem = z.infer<typeof promptGroupItemSchema>;
export const promptGroupSchema = z.array(promptGroupItemSchema).max(150, '提示词不能超过 150 个');

export const NEGATIVE_PROMPT_TYPE = 10;

/** helpUrlFlag "01" (default) reads the featured words only; any other value reads the whole library. */
export const helpUrlFlagSchema = z.string().max(8).default('01');

export const promptWordSchema = z.object({
  id: z.string(),
  categoryId: z.string(),
  /** Chinese label shown on the chip. */
  label: z.string(),
  /** English prompt text sent to the engine. */
  text: z.string(),
  featured: z.boolean(),
});
export type PromptWord = z.infer<typeof promptWordSchema>;

export type PromptTreeNode = {
  id: string;
  key: string;
  name: string;
  kind: 'category' | 'word';
  text?: string;
  children?: PromptTreeNode[];
};
export const promptTreeNodeSchema: z.ZodType<PromptTreeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    kind: z.enum(['category', 'word']),
    text: z.string().optional(),
    children: z.array(promptTreeNodeSchema).optional(),
  }),
);

export const promptListQuerySchema = z.object({
  helpUrlFlag: helpUrlFlagSchema,
  keyword: z.string().trim().max(50, '关键词不能超过 50 个字符').optional(),
  categoryId: z.string().max(64).optional(),
  current: z.coerce.number().int().min(1, '页码必须大于 0').default(1),
  pageSize: z.coerce.number().int().min(1, '每页条数必须大于 0').max(200, '每页条数不能超过 200').default(50),
});
export const promptWordPageSchema = pageSchema(promptWordSchema);

export const promptWordBodySchema = z.object({
  label: displayNameOf('中文标签', 20),
  text: z
    .string({ error: '请填写英文提示词' })
    .trim()
    .min(1, '请填写英文提示词')
    .max(200, '英文提示词不能超过 200 个字符')
    .regex(/^[\x20-\x7e]+$/, '英文提示词只能包含英文字符'),
  featured: z.boolean().default(false),
});
export type PromptWordBody = z.infer<typeof promptWordBodySchema>;

/** One entry of the prompt history: the prompt groups of one generation. */
export const promptHistoryItemSchema = z.object({
  id: z.string(),
  promptGroup: promptGroupSchema,
  negativePromptGroup: promptGroupSchema,
  /** Spec §3: 1 pinned, 0 not. */
  pin: z.union([z.literal(0), z.literal(1)]),
  templateName: z.string(),
  createdAt: z.string(),
});
export type PromptHistoryItem = z.infer<typeof promptHistoryItemSchema>;
export const promptHistoryPageSchema = pageSchema(promptHistoryItemSchema);
/** Spec §9: after deleting, the history reloads page 1 with page size 15. */
export const PROMPT_HISTORY_PAGE_SIZE = 15;
export const promptHistoryQuerySchema = z.object({
  ...pagingFields(PROMPT_HISTORY_PAGE_SIZE),
  keyword: z.string().trim().max(50, '关键词不能超过 50 个字符').optional(),
});
export const promptHistoryDeleteBodySchema = z.object({
  ids: z
    .array(z.string().trim().min(1).max(64, '历史记录编号格式不正确'))
    .min(1, '请选择要删除的历史记录')
    .max(100, '一次最多删除 100 条历史记录'),
});
