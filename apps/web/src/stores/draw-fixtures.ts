import type { PromptGroupItem, TaskStep, TemplateDetail } from '@huafang/contracts';

/** Test data shared by the draw store's unit tests: a two-step template. */
export function word(id: string, custom: '0' | '1' = '0'): PromptGroupItem {
  return { id, groupName: `词${id}`, promptText: `word ${id}`, custom };
}

export function step(stepIndex: number, generateMode: TaskStep['generateMode']): TaskStep {
  return {
    id: `s${stepIndex}`,
    stepIndex,
    name: `步骤${stepIndex}`,
    generateMode,
    useParentImage: stepIndex > 0,
    promptGroup: [word(`p${stepIndex}`)],
    negativePromptGroup: [word(`n${stepIndex}`)],
    parameters: { steps: 20 + stepIndex },
    formConfig: [{ type: 'number', name: 'steps', text: '采样步数', show: true, disabled: false, checked: false }],
  };
}

export const detail: TemplateDetail = {
  templateId: 'tpl1',
  taskId: 'task1',
  name: '古风人像',
  cover: null,
  description: '',
  status: 'published',
  visibility: 'public',
  version: 1,
  ownerId: null,
  updatedAt: '2026-01-01T00:00:00.000Z',
  taskStepList: [step(0, 'txt2img'), step(1, 'upscale')],
};
