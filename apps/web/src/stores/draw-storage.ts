import {
  formConfigItemSchema,
  generateModeSchema,
  type PromptGroupItem,
  parametersSchema,
  promptGroupSchema,
  taskStepSchema,
  templateDetailSchema,
} from '@huafang/contracts';
import { z } from 'zod';
import { type GenerationTrack, repairGenerationTrack } from '../features/generate/generation-state';
import { DRAW_DRAFT_DEFAULTS, type DrawDraft, stepFields } from './draw-state';

export const DRAW_STORAGE_KEY = 'huafang-draw';

const draftFieldSchemas: { [K in keyof DrawDraft]: z.ZodType<DrawDraft[K]> } = {
  taskSelect: z.string().min(1),
  helpUrlFlag: z.string().min(1).max(8),
  templateId: z.string().nullable(),
  stepKey: z.number().int().min(0),
  stepIndex: z.number().int().min(0),
  taskTemplateDetails: templateDetailSchema.nullable(),
  taskSteps: z.array(taskStepSchema),
  curPromptGroup: promptGroupSchema,
  curNegativePromptGroup: promptGroupSchema,
  curParameters: parametersSchema,
  curGenerateMode: generateModeSchema.nullable(),
  formConfig: z.array(formConfigItemSchema),
};

function readField<K extends keyof DrawDraft>(raw: Record<string, unknown>, key: K): DrawDraft[K] {
  const parsed = draftFieldSchemas[key].safeParse(raw[key]);
  return parsed.success ? parsed.data : DRAW_DRAFT_DEFAULTS[key];
}

/** A group without 编辑 mode's close buttons. */
function atRest(group: PromptGroupItem[]): PromptGroupItem[] {
  return group.map(({ showClose: _editing, ...item }) => item);
}

/**
 * Reads a saved draft and repairs it, so an old or broken one never crashes /draw: each field of a wrong shape
 * falls back to its default, a draft whose template no longer fits starts over, and a step out of range
 * reopens the first step.
 */
export function repairDrawDraft(raw: unknown): DrawDraft {
  if (typeof raw !== 'object' || raw === null) return { ...DRAW_DRAFT_DEFAULTS };
  const record = raw as Record<string, unknown>;
  const read = <K extends keyof DrawDraft>(key: K) => readField(record, key);
  const draft: DrawDraft = {
    taskSelect: read('taskSelect'),
    helpUrlFlag: read('helpUrlFlag'),
    templateId: read('templateId'),
    stepKey: read('stepKey'),
    stepIndex: read('stepIndex'),
    taskTemplateDetails: read('taskTemplateDetails'),
    taskSteps: read('taskSteps'),
    // 编辑 mode (close buttons on every word) belongs to the visit: a reload shows the groups at rest.
    curPromptGroup: atRest(read('curPromptGroup')),
    curNegativePromptGroup: atRest(read('curNegativePromptGroup')),
    curParameters: read('curParameters'),
    curGenerateMode: read('curGenerateMode'),
    formConfig: read('formConfig'),
  };
  const detail = draft.taskTemplateDetails;
  if (!detail || detail.templateId !== draft.templateId || draft.taskSteps.length === 0) {
    return { ...DRAW_DRAFT_DEFAULTS, helpUrlFlag: draft.helpUrlFlag };
  }
  if (draft.stepKey >= draft.taskSteps.length) return { ...draft, ...stepFields(draft.taskSteps, 0) };
  return draft;
}

/** What /draw saves: the draft and the current generation's track. */
export type SavedDraw = DrawDraft & GenerationTrack;

/** The track is repaired on its own: a generation stays followed even when its template no longer fits. */
export function repairSavedDraw(raw: unknown): SavedDraw {
  return { ...repairDrawDraft(raw), ...repairGenerationTrack(raw) };
}
