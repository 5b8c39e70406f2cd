import { z } from 'zod';
import { pageSchema, pagingFields } from './envelope.js';
import { idOf } from './fields.js';
import { pictureFields } from './files.js';
import { parametersSchema } from './form-config.js';
import { promptGroupSchema } from './prompt.js';
import { generateModeSchema } from './task.js';

const isoDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, '日期格式应为 YYYY-MM-DD')
  .optional();

/** The templateId filter of 我的作品 that means 自由创作: works made without a template. */
export const FREE_CREATION_FILTER = 'free';

/**
 * Optional keyset paging of a list a client scrolls: the `nextCursor` of the page it has, for the next `pageSize`
 * items after it (then `current` is not used). Deep pages cost as little as the first, and nothing shifts when
 * works are added meanwhile. Without it `current`/`pageSize` page as the spec says.
 */
const cursorField = { cursor: z.string().max(200, '分页游标不正确').optional() };

/** A page of a list with keyset paging: `nextCursor` continues after its last item; null when no more may follow. */
const keysetPageSchema = <T extends z.ZodType>(item: T) =>
  pageSchema(item).extend({ nextCursor: z.string().nullable().optional() });

/** GET /api/works/profile: the user's own works, newest first, with filters. */
export const workProfileQuerySchema = z.object({
  ...pagingFields(20),
  ...cursorField,
  /** A template's id, or FREE_CREATION_FILTER. */
  templateId: z.string().max(64).optional(),
  /** Inclusive days in the user's time zone, given by tzOffset. */
  dateFrom: isoDay,
  dateTo: isoDay,
  /** The browser's `Date#getTimezoneOffset()` in minutes (UTC minus local time: -480 in China); 0 = UTC days. */
  tzOffset: z.coerce.number().int('时区偏移须为整数').min(-840, '时区偏移不正确').max(840, '时区偏移不正确').default(0),
  keyword: z.string().trim().max(50, '关键词不能超过 50 个字符').optional(),
});
export type WorkProfileQuery = z.input<typeof workProfileQuerySchema>;

/** What every list of works shows of one: its picture (a thumbnail, the original) and when it was made. */
const workPictureFields = {
  id: z.string(),
  ...pictureFields,
  createdAt: z.string(),
};

export const workItemSchema = z.object({
  ...workPictureFields,
  templateId: z.string().nullable(),
  templateName: z.string(),
  public: z.boolean(),
});
export type WorkItem = z.infer<typeof workItemSchema>;
export const workPageSchema = keysetPageSchema(workItemSchema);

/** The full record of a work: what recall (再次生成 / 做同款) puts back into /draw. */
export const workDetailSchema = workItemSchema.extend({
  generationId: z.string(),
  stepIndex: z.number().int(),
  mode: generateModeSchema,
  prompt: z.string(),
  negativePrompt: z.string(),
  /** The prompts as written (Chinese) when the model read them translated (`prompt`); null when it read them so. */
  sourcePrompt: z.string().nullable(),
  sourceNegativePrompt: z.string().nullable(),
  promptGroup: promptGroupSchema,
  negativePromptGroup: promptGroupSchema,
  parameters: parametersSchema,
  seed: z.number(),
  backend: z.string(),
  hidePrompt: z.boolean(),
  views: z.number().int(),
  /**
   * 内容审核 (docs/compliance.md): none, pending (held for an admin before publication), approved (an admin passed
   * it) or removed (下架: it cannot be published).
   */
  moderation: z.enum(['none', 'pending', 'approved', 'removed']),
});
export type WorkDetail = z.infer<typeof workDetailSchema>;
export const workIdQuerySchema = z.object({ id: idOf('作品') });

export const MAX_WORKS_PER_ACTION = 200;
export const worksDeleteBodySchema = z.object({
  ids: z
    .array(idOf('作品'))
    .min(1, '请选择要删除的作品')
    .max(MAX_WORKS_PER_ACTION, `一次最多删除 ${MAX_WORKS_PER_ACTION} 个作品`),
});

/** GET /api/files/downloadZip?ids=a,b,c: the originals of the user's works as one zip. */
export const MAX_WORKS_PER_ZIP = 200;
export const downloadZipQuerySchema = z.object({
  ids: z
    .string({ error: '请选择要下载的作品' })
    .transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean),
      ),
    ])
    .pipe(
      z
        .array(z.string().max(64, '作品编号格式不正确'))
        .min(1, '请选择要下载的作品')
        .max(MAX_WORKS_PER_ZIP, `一次最多打包下载 ${MAX_WORKS_PER_ZIP} 个作品，请分批下载`),
    ),
});

/**
 * The thumbnail sizes of a work (longest side, CSS pixels of a 1× screen): the galleries' columns on phones and
 * desktops at 1×–3×. GET /api/works/thumb/:id?w= answers any of them (384 without `w`); a width other than 384 is
 * made from the original the first time it is asked for and kept.
 */
export const WORK_THUMB_SIZES = [256, 384, 640] as const;
export const DEFAULT_WORK_THUMB_SIZE = 384;
export const workThumbQuerySchema = z.object({
  w: z.coerce
    .number()
    .int()
    .refine((size) => (WORK_THUMB_SIZES as readonly number[]).includes(size), '缩略图尺寸不支持')
    .optional(),
});

/** POST /api/works/publish: to the public gallery (omnibus) or back; the author may hide the prompts. */
export const workPublishBodySchema = z.object({
  id: idOf('作品'),
  public: z.boolean({ error: '请选择发布或取消发布' }),
  hidePrompt: z.boolean().default(false),
});

export const workAuthorSchema = z.object({ nickname: z.string(), avatar: z.string().nullable() });
export const publicWorkItemSchema = z.object({
  ...workPictureFields,
  publishedAt: z.string(),
  templateId: z.string().nullable(),
  templateName: z.string(),
  views: z.number().int(),
  /** 点赞 and 收藏 counts, and whether the viewer (when logged in) liked or favourited it; false for a guest. */
  likes: z.number().int(),
  favorites: z.number().int(),
  liked: z.boolean(),
  favorited: z.boolean(),
  author: workAuthorSchema,
});
export type PublicWorkItem = z.infer<typeof publicWorkItemSchema>;
export const publicWorkPageSchema = keysetPageSchema(publicWorkItemSchema);

/** 最新 by publication; 热门 by the hot score (likes, favourites and views, decaying with age: docs/community.md). */
export const publicWorkOrderSchema = z.enum(['latest', 'hot'], { error: '排序方式不正确' });
/** GET /api/works/public and /public/list (spec §9: page 1, size 10 by default). */
export const publicWorkQuerySchema = z.object({
  ...pagingFields(10, 50),
  ...cursorField,
  order: publicWorkOrderSchema.default('latest'),
  /** A task category: works made with templates under it. */
  categoryId: z.string().max(64).optional(),
});

/** A public work's detail: prompts and parameters are null when the author hid them. */
export const publicWorkDetailSchema = publicWorkItemSchema.extend({
  mode: generateModeSchema,
  hidePrompt: z.boolean(),
  prompt: z.string().nullable(),
  negativePrompt: z.string().nullable(),
  sourcePrompt: z.string().nullable(),
  sourceNegativePrompt: z.string().nullable(),
  promptGroup: promptGroupSchema.nullable(),
  negativePromptGroup: promptGroupSchema.nullable(),
  parameters: parametersSchema.nullable(),
  /** The model's name: a guest cannot read the model list to name `parameters.modelId`. Null when hidden or gone. */
  modelName: z.string().nullable(),
  /** The names of the LoRA styles `parameters.loras` names, for the same reason; empty when hidden or none. */
  loraStyles: z.array(z.object({ id: z.string(), name: z.string() })),
  stepIndex: z.number().int(),
});
export type PublicWorkDetail = z.infer<typeof publicWorkDetailSchema>;

/** GET /api/task/template/related/work: public works made with a template. */
export const relatedWorkQuerySchema = z.object({
  templateId: idOf('模板'),
  ...pagingFields(10, 50),
});

/** 作品审核: what admins see of published works, newest first. */
export const reviewWorkItemSchema = publicWorkItemSchema.extend({
  hidden: z.boolean(),
  prompt: z.string(),
  authorId: z.string(),
});
export const reviewWorkPageSchema = pageSchema(reviewWorkItemSchema);
export const reviewWorkQuerySchema = z.object({
  ...pagingFields(20),
  status: z.enum(['all', 'visible', 'hidden']).default('all'),
});
export const reviewHideBodySchema = z.object({ id: idOf('作品'), hidden: z.boolean() });
