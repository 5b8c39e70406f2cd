import {
  DEFAULT_HELP_URL_FLAG,
  DEFAULT_STEP_INDEX,
  DEFAULT_TASK_SELECT,
  type FormConfigItem,
  type GenerateMode,
  type Parameters,
  type PromptGroupItem,
  type TaskStep,
  type TemplateDetail,
} from '@huafang/contracts';
import { initialParameters } from '../features/form-config/form-values';
import type { PromptVariant } from '../services/prompt';

/** The draw state of spec §3 that survives a reload: the chosen template and the user's edits of it. */
export interface DrawDraft {
  taskSelect: string;
  helpUrlFlag: string;
  templateId: string | null;
  /** The step tab being edited, a position in taskSteps. */
  stepKey: number;
  /** That step's own stepIndex. */
  stepIndex: number;
  taskTemplateDetails: TemplateDetail | null;
  /** The template's steps with the user's edits of the steps not on screen. */
  taskSteps: TaskStep[];
  curPromptGroup: PromptGroupItem[];
  curNegativePromptGroup: PromptGroupItem[];
  curParameters: Parameters;
  curGenerateMode: GenerateMode | null;
  formConfig: FormConfigItem[];
}

export const DRAW_DRAFT_DEFAULTS: DrawDraft = {
  taskSelect: DEFAULT_TASK_SELECT,
  helpUrlFlag: DEFAULT_HELP_URL_FLAG,
  templateId: null,
  stepKey: DEFAULT_STEP_INDEX,
  stepIndex: DEFAULT_STEP_INDEX,
  taskTemplateDetails: null,
  taskSteps: [],
  curPromptGroup: [],
  curNegativePromptGroup: [],
  curParameters: {},
  curGenerateMode: null,
  formConfig: [],
};

type StepFields = Pick<
  DrawDraft,
  'stepKey' | 'stepIndex' | 'curPromptGroup' | 'curNegativePromptGroup' | 'curParameters' | 'formConfig'
>;

const EMPTY_STEP: StepFields = {
  stepKey: DEFAULT_STEP_INDEX,
  stepIndex: DEFAULT_STEP_INDEX,
  curPromptGroup: [],
  curNegativePromptGroup: [],
  curParameters: {},
  formConfig: [],
};

function clampStepKey(steps: TaskStep[], stepKey: number): number {
  return Number.isInteger(stepKey) && stepKey >= 0 && stepKey < steps.length ? stepKey : DEFAULT_STEP_INDEX;
}

/** The cur* fields of the step at stepKey (the first one when stepKey is out of range). */
export function stepFields(steps: TaskStep[], stepKey: number): StepFields {
  const key = clampStepKey(steps, stepKey);
  const step = steps[key];
  if (!step) return EMPTY_STEP;
  return {
    stepKey: key,
    stepIndex: step.stepIndex,
    curPromptGroup: step.promptGroup,
    curNegativePromptGroup: step.negativePromptGroup,
    curParameters: initialParameters(step.formConfig, step.parameters),
    formConfig: step.formConfig,
  };
}

/** Spec §4: loading template details picks the step at stepKey (default 0); generate mode comes from the first step. */
export function templateDraft(
  detail: TemplateDetail,
  stepKey: number = DEFAULT_STEP_INDEX,
): Omit<DrawDraft, 'helpUrlFlag'> {
  const steps = detail.taskStepList;
  return {
    taskSelect: detail.taskId,
    templateId: detail.templateId,
    taskTemplateDetails: detail,
    taskSteps: steps,
    curGenerateMode: steps[0]?.generateMode ?? null,
    ...stepFields(steps, stepKey),
  };
}

/** Keeps the edits of the step on screen in taskSteps, so switching tabs back and forth loses nothing. */
function stepsWithCurrentEdits(draft: DrawDraft): TaskStep[] {
  return draft.taskSteps.map((step, key) =>
    key === draft.stepKey
      ? {
          ...step,
          promptGroup: draft.curPromptGroup,
          negativePromptGroup: draft.curNegativePromptGroup,
          parameters: draft.curParameters,
        }
      : step,
  );
}

/** Switching the step tab: the step's own generate mode applies from then on. */
export function switchStep(draft: DrawDraft, stepKey: number): Partial<DrawDraft> {
  const taskSteps = stepsWithCurrentEdits(draft);
  const fields = stepFields(taskSteps, stepKey);
  return { taskSteps, ...fields, curGenerateMode: taskSteps[fields.stepKey]?.generateMode ?? draft.curGenerateMode };
}

/** Adds a word once; a word already in the group keeps its place. In edit mode the new word can be closed too. */
export function appendPrompt(group: PromptGroupItem[], item: PromptGroupItem): PromptGroupItem[] {
  if (group.some((existing) => existing.id === item.id)) return group;
  return [...group, group.some((existing) => existing.showClose) ? { ...item, showClose: true } : item];
}

/** Spec §4 Prompts: edit mode sets showClose on every item (and leaving it clears them). */
export function withShowClose(group: PromptGroupItem[], showClose: boolean): PromptGroupItem[] {
  return group.map((item) => ({ ...item, showClose }));
}

export function removePrompt(group: PromptGroupItem[], id: string): PromptGroupItem[] {
  return group.filter((item) => item.id !== id);
}

/** Spec §4 Prompts: the draw area's clean removes the items with custom "1". */
export function cleanCustomPrompts(group: PromptGroupItem[]): PromptGroupItem[] {
  return group.filter((item) => item.custom !== '1');
}

export function promptGroupOf(draft: DrawDraft, variant: PromptVariant): PromptGroupItem[] {
  return variant === 'negative' ? draft.curNegativePromptGroup : draft.curPromptGroup;
}

export function promptGroupPatch(
  variant: PromptVariant,
  group: PromptGroupItem[],
): Pick<DrawDraft, 'curPromptGroup'> | Pick<DrawDraft, 'curNegativePromptGroup'> {
  return variant === 'negative' ? { curNegativePromptGroup: group } : { curPromptGroup: group };
}
