import type { FormConfigItem, TaskStepInput } from '@huafang/contracts';

export const selectField = (name: string, text: string, extra: Partial<FormConfigItem> = {}): FormConfigItem => ({
  type: 'select',
  name,
  text,
  show: true,
  disabled: false,
  checked: false,
  ...extra,
});

/** A minimal valid step: one sampler select fed by an existing option source. */
export const validStep = (extra: Partial<TaskStepInput> = {}): TaskStepInput => ({
  name: '生成',
  generateMode: 'txt2img',
  promptGroup: [{ id: 'p1', groupName: '山', promptText: 'mountain', custom: '0' }],
  formConfig: [selectField('sampler', '采样器', { url: '/api/options/samplers' })],
  ...extra,
});
