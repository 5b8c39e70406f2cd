import {
  type FormConfigItem,
  type GenerateMode,
  type Parameters,
  type PromptGroupItem,
  TEMPLATE_WITHOUT_PROMPTS,
  type TemplateDetail,
  type TemplateSaveBody,
  templateHasPrompts,
  templateSaveBodySchema,
} from '@huafang/contracts';
import { localId } from './ids';

export const MAX_STEPS = 5;

export type Visibility = TemplateDetail['visibility'];

/** A step being edited. `key` names its tab; `id` is the server's, absent until the template is saved. */
export interface StepDraft {
  key: string;
  id?: string;
  name: string;
  generateMode: GenerateMode;
  useParentImage: boolean;
  promptGroup: PromptGroupItem[];
  negativePromptGroup: PromptGroupItem[];
  parameters: Parameters;
  formConfig: FormConfigItem[];
}

export interface TemplateDraft {
  templateId: string;
  taskId: string;
  name: string;
  description: string;
  cover: string | null;
  visibility: Visibility;
  steps: StepDraft[];
}

export type TemplateBasics = Pick<TemplateDraft, 'name' | 'description' | 'visibility' | 'cover'>;

export function draftFromDetail(detail: TemplateDetail): TemplateDraft {
  return {
    templateId: detail.templateId,
    taskId: detail.taskId,
    name: detail.name,
    description: detail.description,
    cover: detail.cover,
    visibility: detail.visibility,
    steps: detail.taskStepList.map(({ stepIndex: _index, ...step }) => ({ ...step, key: step.id })),
  };
}

/**
 * A new step: the first one draws from text; a later one starts as 图生图 on the image the user picked
 * from the previous step, the usual shape of a multi-step template.
 */
export function newStep(index: number): StepDraft {
  const later = index > 0;
  return {
    key: localId('s'),
    name: `步骤 ${index + 1}`,
    generateMode: later ? 'img2img' : 'txt2img',
    useParentImage: later,
    promptGroup: [],
    negativePromptGroup: [],
    parameters: {},
    formConfig: [],
  };
}

function stepBody({ key: _key, ...step }: StepDraft): TemplateSaveBody['taskStepList'][number] {
  return step;
}

export function saveBodyOf(draft: TemplateDraft): TemplateSaveBody {
  return {
    templateId: draft.templateId,
    taskId: draft.taskId,
    name: draft.name.trim(),
    cover: draft.cover,
    description: draft.description.trim(),
    visibility: draft.visibility,
    taskStepList: draft.steps.map(stepBody),
  };
}

/** What 新建模板 saves as a draft: a name and one empty text-to-image step to start designing from. */
export function newTemplateBody(taskId: string, name: string): TemplateSaveBody {
  return { taskId, name, description: '', visibility: 'public', taskStepList: [stepBody(newStep(0))] };
}

/**
 * The first thing the server's schema would refuse, in its Chinese words and naming the step, or null; for 发布
 * also a template without prompts (the server's rule). Checked before saving so such a draft never leaves the page.
 */
export function draftProblem(body: TemplateSaveBody, mode: 'draft' | 'publish' = 'draft'): string | null {
  const result = templateSaveBodySchema.safeParse(body);
  const issue = result.success ? undefined : result.error.issues[0];
  if (!issue) return mode === 'publish' && !templateHasPrompts(body.taskStepList) ? TEMPLATE_WITHOUT_PROMPTS : null;
  const [list, stepIndex] = issue.path;
  return list === 'taskStepList' && typeof stepIndex === 'number'
    ? `步骤 ${stepIndex + 1}：${issue.message}`
    : issue.message;
}
