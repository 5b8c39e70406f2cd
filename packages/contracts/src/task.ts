import { z } from 'zod';
import { displayNameOf, idOf } from './fields.js';
import { formConfigItemSchema, parametersSchema } from './form-config.js';
import { promptGroupSchema } from './prompt.js';

/** The tree is two levels of tasks (category → task, spec taskData/twoTaskData) with templates as leaves. */
export const taskNodeKindSchema = z.enum(['category', 'task', 'template']);
export type TaskNodeKind = z.infer<typeof taskNodeKindSchema>;

export type TaskTreeNode = {
  id: string;
  key: string;
  name: string;
  kind: TaskNodeKind;
  parentId: string | null;
  icon: string | null;
  cover: string | null;
  description: string;
  published: boolean;
  /** Templates only: draft | published. */
  status?: TemplateStatus;
  templateCount?: number;
  children?: TaskTreeNode[];
};
export const taskTreeNodeSchema: z.ZodType<TaskTreeNode> = z.lazy(() =>
  z.object({
    id: z.string(),
    key: z.string(),
    name: z.string(),
    kind: taskNodeKindSchema,
    parentId: z.string().nullable(),
    icon: z.string().nullable(),
    cover: z.string().nullable(),
    description: z.string(),
    published: z.boolean(),
    status: z.enum(['draft', 'published']).optional(),
    templateCount: z.number().int().optional(),
    children: z.array(taskTreeNodeSchema).optional(),
  }),
);

const nameSchema = (what: string) => displayNameOf(`${what}名称`, 30);
const descriptionSchema = z.string().trim().max(200, '描述不能超过 200 个字').default('');
const imageRefSchema = z.string().trim().max(300, '图片地址过长').nullable().optional();

/** POST /api/task: a category (parentId null) or a task under a category. */
export const taskBodySchema = z.object({
  parentId: z.string().max(64).nullable().default(null),
  name: nameSchema('任务'),
  icon: imageRefSchema,
  cover: imageRefSchema,
  description: descriptionSchema,
  published: z.boolean().default(false),
});
export type TaskBody = z.infer<typeof taskBodySchema>;
export const taskUpdateBodySchema = taskBodySchema.omit({ parentId: true }).partial();

export const taskSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  kind: z.enum(['category', 'task']),
  name: z.string(),
  icon: z.string().nullable(),
  cover: z.string().nullable(),
  description: z.string(),
  published: z.boolean(),
  sort: z.number().int(),
  /** Set on a user's own copy. */
  ownerId: z.string().nullable(),
});
export type Task = z.infer<typeof taskSchema>;

export const taskCopyBodySchema = z.object({
  taskId: idOf('任务'),
  /** Target category; the task's own category when absent. */
  parentId: z.string().max(64).nullable().optional(),
});
export const taskMoveBodySchema = z.object({
  taskId: idOf('任务'),
  parentId: z.string().max(64).nullable(),
  /** Position among the new siblings, 0 first; last when absent. */
  sort: z.number().int().min(0, '位置不能为负数').optional(),
});
export const copyToMineBodySchema = z.object({ taskId: idOf('任务') });
export const copiableSchema = z.object({ copiable: z.boolean(), reason: z.string().nullable() });

export const generateModeSchema = z.enum(['txt2img', 'img2img', 'upscale', 'inpaint'], { error: '生成方式不正确' });
export type GenerateMode = z.infer<typeof generateModeSchema>;
export const GENERATE_MODE_LABELS: Record<GenerateMode, string> = {
  txt2img: '文生图',
  img2img: '图生图',
  upscale: '高清放大',
  inpaint: '局部重绘',
};

export const templateStatusSchema = z.enum(['draft', 'published']);
export type TemplateStatus = z.infer<typeof templateStatusSchema>;

export const taskStepSchema = z.object({
  id: z.string(),
  stepIndex: z.number().int(),
  name: z.string(),
  generateMode: generateModeSchema,
  /** The step draws on the image chosen from the previous step's results. */
  useParentImage: z.boolean(),
  promptGroup: promptGroupSchema,
  negativePromptGroup: promptGroupSchema,
  parameters: parametersSchema,
  formConfig: z.array(formConfigItemSchema),
});
export type TaskStep = z.infer<typeof taskStepSchema>;

export const taskStepInputSchema = taskStepSchema.extend({
  id: z.string().max(64).optional(),
  stepIndex: z.number().int().optional(),
  name: displayNameOf('步骤名称', 20),
  useParentImage: z.boolean().default(false),
  promptGroup: promptGroupSchema.default([]),
  negativePromptGroup: promptGroupSchema.default([]),
  parameters: parametersSchema.default({}),
  formConfig: z.array(formConfigItemSchema).max(40, '表单项不能超过 40 个').default([]),
});
export type TaskStepInput = z.input<typeof taskStepInputSchema>;

export const templateVisibilitySchema = z.enum(['public', 'private']);

export const templateDetailSchema = z.object({
  templateId: z.string(),
  taskId: z.string(),
  name: z.string(),
  cover: z.string().nullable(),
  description: z.string(),
  status: templateStatusSchema,
  visibility: templateVisibilitySchema,
  version: z.number().int(),
  ownerId: z.string().nullable(),
  updatedAt: z.string(),
  taskStepList: z.array(taskStepSchema),
  /** Shown among the home page's 精选模板 (official templates; set by an admin). */
  featured: z.boolean().optional(),
  featuredSort: z.number().int().optional(),
});
export type TemplateDetail = z.infer<typeof templateDetailSchema>;

/** POST /api/task/template/featured (admin): 设为精选 and its place among the featured templates. */
export const templateFeaturedBodySchema = z.object({
  templateId: idOf('模板'),
  featured: z.boolean({ error: '请选择是否设为精选' }),
  featuredSort: z
    .number({ error: '精选排序须为数字' })
    .int('精选排序须为整数')
    .min(0, '精选排序不能为负数')
    .max(999, '精选排序不能大于 999')
    .default(0),
});
export type TemplateFeaturedBody = z.input<typeof templateFeaturedBodySchema>;

/** GET /api/task/template/featured (public): the home page's 精选模板. */
export const featuredTemplateSchema = templateDetailSchema.pick({
  templateId: true,
  taskId: true,
  name: true,
  cover: true,
  description: true,
});
export type FeaturedTemplate = z.infer<typeof featuredTemplateSchema>;

export const templateSaveBodySchema = z.object({
  templateId: z.string().max(64).optional(),
  taskId: idOf('任务'),
  name: nameSchema('模板'),
  cover: imageRefSchema,
  description: descriptionSchema,
  visibility: templateVisibilitySchema.default('public'),
  taskStepList: z.array(taskStepInputSchema).min(1, '模板至少需要一个步骤').max(5, '模板最多 5 个步骤'),
});
export type TemplateSaveBody = z.input<typeof templateSaveBodySchema>;
/** A task or category a template sits in, with whether users see it (未发布 hides everything inside). */
const templatePlaceSchema = z.object({ id: z.string(), name: z.string(), published: z.boolean() });

export const templateSaveResultSchema = z.object({
  templateId: z.string(),
  status: templateStatusSchema,
  version: z.number().int(),
  /** Its task and the task's category: a published template stays out of users' sight while either is 未发布. */
  task: templatePlaceSchema,
  category: templatePlaceSchema.nullable(),
});

export const templateCopyBodySchema = z.object({
  templateId: idOf('模板'),
  taskId: z.string().max(64).optional(),
});
/** POST /api/task/template/rename: a new name for the working copy and the published version alike. */
export const templateRenameBodySchema = z.object({ templateId: idOf('模板'), name: nameSchema('模板') });

export const templateMoveBodySchema = z.object({
  templateId: idOf('模板'),
  taskId: idOf('任务'),
  sort: z.number().int().min(0, '位置不能为负数').optional(),
});

/** An entry of the template list: a task with the templates users may see (spec §4 Tasks fetch). */
export const visTemplateSchema = z.object({
  templateId: z.string(),
  name: z.string(),
  cover: z.string().nullable(),
  description: z.string(),
  stepCount: z.number().int(),
  generateMode: generateModeSchema,
});
export const taskTemplateListItemSchema = z.object({
  taskId: z.string(),
  taskName: z.string(),
  cover: z.string().nullable(),
  description: z.string(),
  visTemplateList: z.array(visTemplateSchema),
});
export type TaskTemplateListItem = z.infer<typeof taskTemplateListItemSchema>;
export const templateListQuerySchema = z.object({ taskId: idOf('任务') });

export const templateTaskSchema = z.object({ task: taskSchema, category: taskSchema.nullable() });
export const stepConfigSchema = z.object({
  stepId: z.string(),
  templateId: z.string(),
  generateMode: generateModeSchema,
  parameters: parametersSchema,
  formConfig: z.array(formConfigItemSchema),
});

/** Why a template without a single prompt word cannot be published: users would generate from nothing. */
export const TEMPLATE_WITHOUT_PROMPTS = '模板还没有提示词：请至少在一个步骤的正向提示词中添加提示词后再发布';

/** Whether any step has a positive prompt word with text: the least a template needs to be published. */
export function templateHasPrompts(steps: readonly { promptGroup?: readonly { promptText: string }[] }[]): boolean {
  return steps.some((step) => (step.promptGroup ?? []).some((item) => item.promptText.trim() !== ''));
}
