import { z } from 'zod';

/** How a parameter field is drawn on /draw (spec §3 form config item). */
export const formFieldTypeSchema = z.enum(
  ['select', 'collapse', 'input', 'textarea', 'number', 'slider', 'switch', 'image', 'radio'],
  { error: '表单项类型不正确' },
);
export type FormFieldType = z.infer<typeof formFieldTypeSchema>;

/** One choice of a select or radio. ControlNet module options also carry moduleName and fromConfig. */
export const formOptionSchema = z.object({
  label: z.string(),
  value: z.union([z.string(), z.number()]),
  moduleName: z.string().optional(),
  /** JSON list of the field names this module shows, e.g. '["processorRes","thresholdA"]'. */
  fromConfig: z.string().optional(),
});
export type FormOption = z.infer<typeof formOptionSchema>;

export type FormConfigItem = {
  type: FormFieldType;
  /** Parameter name the field writes, e.g. modelId, steps, controlNets. */
  name: string;
  /** Chinese label. */
  text: string;
  value?: unknown;
  /** Options are fetched from this /api path (GET, data: FormOption[]). */
  url?: string;
  option?: FormOption[];
  show: boolean;
  disabled: boolean;
  checked: boolean;
  min?: number;
  max?: number;
  step?: number;
  /** For modelId: the model groups shown as tabs. */
  modelTabList?: string[];
  children?: FormConfigItem[];
};

export const formConfigItemSchema: z.ZodType<FormConfigItem> = z.lazy(() =>
  z.object({
    type: formFieldTypeSchema,
    name: z.string({ error: '表单项缺少参数名' }).trim().min(1, '表单项缺少参数名').max(64, '参数名过长'),
    text: z.string({ error: '表单项缺少标题' }).trim().min(1, '表单项缺少标题').max(32, '表单项标题过长'),
    value: z.unknown().optional(),
    url: z
      .string()
      .regex(/^\/api\/[\w/.-]+$/, '选项来源必须是 /api/ 开头的接口路径')
      .optional(),
    option: z.array(formOptionSchema).max(200, '选项不能超过 200 个').optional(),
    show: z.boolean().default(true),
    disabled: z.boolean().default(false),
    checked: z.boolean().default(false),
    min: z.number().optional(),
    max: z.number().optional(),
    step: z.number().positive().optional(),
    modelTabList: z.array(z.string()).optional(),
    children: z.array(formConfigItemSchema).max(50, '子表单项不能超过 50 个').optional(),
  }),
);

/** Parameter names shared by templates and generation (issue: tasks and templates). */
export const PARAMETER_NAMES = [
  'modelId',
  'sampler',
  'steps',
  'cfgScale',
  'width',
  'height',
  'seed',
  'batchSize',
  'denoisingStrength',
  'initImageFileId',
  'controlNets',
  'loras',
] as const;

export const CONTROLNET_FIELD_NAMES = [
  'controlnetModule',
  'controlnetModel',
  'inputImageFileId',
  'weight',
  'guidanceStart',
  'guidanceEnd',
  'processorRes',
  'thresholdA',
  'thresholdB',
  'controlMode',
] as const;

export const parametersSchema = z.record(z.string(), z.unknown());
export type Parameters = z.infer<typeof parametersSchema>;
