import {
  type FormConfigItem,
  GENERATE_MODE_LABELS,
  TEMPLATE_WITHOUT_PROMPTS,
  type taskStepInputSchema,
  templateHasPrompts,
} from '@huafang/contracts';
import type { z } from 'zod';

type StepToCheck = Pick<
  z.output<typeof taskStepInputSchema>,
  'name' | 'generateMode' | 'useParentImage' | 'formConfig' | 'parameters' | 'promptGroup'
>;

const NEEDS_INPUT_IMAGE = new Set(['img2img', 'upscale', 'inpaint']);

/** Whether an id refers to a model of the model menu, or to a LoRA style the admin has added. */
export type ReferenceCheck = {
  modelExists: (id: string) => Promise<boolean>;
  loraExists: (id: string) => Promise<boolean>;
};

/** The LoRA ids in a list of uses (`[{ loraId, weight }]`), as a step's parameters or a field's default hold them. */
const loraIdsOf = (uses: unknown): string[] =>
  (Array.isArray(uses) ? uses : []).flatMap((use: unknown) => {
    const id = (use as { loraId?: unknown } | null)?.loraId;
    return typeof id === 'string' ? [id] : [];
  });

/** Problems that stop a template from being published, each a Chinese sentence naming the step and field. */
export async function templateProblems(
  steps: StepToCheck[],
  optionUrls: readonly string[],
  { modelExists, loraExists }: ReferenceCheck,
): Promise<string[]> {
  const problems: string[] = templateHasPrompts(steps) ? [] : [TEMPLATE_WITHOUT_PROMPTS];
  for (const [index, step] of steps.entries()) {
    const where = `步骤 ${index + 1}「${step.name}」`;
    if (index === 0 && step.useParentImage) problems.push(`${where}：第一步没有上一步的图片可用`);
    const fields = step.formConfig;
    if (fields.length === 0) problems.push(`${where}：至少需要一个表单项`);
    const names = new Set<string>();
    for (const field of fields) {
      if (names.has(field.name)) problems.push(`${where}：表单项参数名「${field.name}」重复`);
      names.add(field.name);
      problems.push(...fieldProblems(where, field, optionUrls));
    }
    if (NEEDS_INPUT_IMAGE.has(step.generateMode) && !step.useParentImage && !names.has('initImageFileId')) {
      problems.push(
        `${where}：「${GENERATE_MODE_LABELS[step.generateMode]}」需要输入图片，请使用上一步的图片或添加图片上传项 initImageFileId`,
      );
    }
    const modelIds = new Set<string>();
    if (typeof step.parameters.modelId === 'string') modelIds.add(step.parameters.modelId);
    const everyField = withChildren(fields);
    for (const field of everyField) {
      if (field.name !== 'modelId') continue;
      if (typeof field.value === 'string') modelIds.add(field.value);
      for (const option of field.option ?? []) modelIds.add(String(option.value));
    }
    for (const id of modelIds) {
      if (!(await modelExists(id))) problems.push(`${where}：引用的模型不存在（${id}）`);
    }
    // Preset styles and a `loras` field's default and choices must name LoRAs that exist.
    const loraIds = new Set(loraIdsOf(step.parameters.loras));
    for (const field of everyField) {
      if (field.name !== 'loras') continue;
      for (const id of loraIdsOf(field.value)) loraIds.add(id);
      for (const option of field.option ?? []) loraIds.add(String(option.value));
    }
    for (const id of loraIds) {
      if (!(await loraExists(id))) problems.push(`${where}：引用的 LoRA 风格不存在（${id}）`);
    }
  }
  return problems;
}

/** The fields and, inside groups, their children. */
const withChildren = (fields: readonly FormConfigItem[]): FormConfigItem[] =>
  fields.flatMap((field) => [field, ...withChildren(field.children ?? [])]);

function fieldProblems(where: string, field: FormConfigItem, optionUrls: readonly string[]): string[] {
  const problems: string[] = [];
  const label = `${where}：表单项「${field.text}」`;
  // A `loras` field without options offers every enabled LoRA that fits the model (the style picker's list).
  const openChoice = field.name === 'loras';
  if (
    (field.type === 'select' || field.type === 'radio') &&
    !openChoice &&
    !field.url &&
    !(field.option && field.option.length > 0)
  ) {
    problems.push(`${label}缺少选项或选项来源`);
  }
  if (field.url && !optionUrls.includes(field.url)) problems.push(`${label}的选项来源 ${field.url} 不存在`);
  if ((field.type === 'number' || field.type === 'slider') && field.min !== undefined && field.max !== undefined) {
    if (field.min >= field.max) problems.push(`${label}的最小值必须小于最大值`);
    else if (typeof field.value === 'number' && (field.value < field.min || field.value > field.max)) {
      problems.push(`${label}的默认值不在 ${field.min}–${field.max} 之间`);
    }
  }
  if (field.type === 'collapse') {
    const children = field.children ?? [];
    if (children.length === 0) problems.push(`${label}是分组，至少需要一个子表单项`);
    if (field.name === 'controlNets' && !children.some((c) => c.name === 'controlnetModule')) {
      problems.push(`${label}是 ControlNet 单元，必须包含预处理器 controlnetModule`);
    }
    const childNames = new Set<string>();
    for (const child of children) {
      if (childNames.has(child.name)) problems.push(`${label}的子表单项「${child.name}」重复`);
      childNames.add(child.name);
      problems.push(...fieldProblems(where, child, optionUrls));
    }
  }
  return problems;
}
