import { type TemplateDetail, templateSaveBodySchema } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { buildControlNetUnit, presetField } from './field-presets';
import { draftFromDetail, draftProblem, newStep, newTemplateBody, saveBodyOf } from './template-draft';

const DETAIL: TemplateDetail = {
  templateId: 'tpl-1',
  taskId: 'task-1',
  name: '水墨山水',
  cover: null,
  description: '一键生成水墨画',
  status: 'published',
  visibility: 'public',
  version: 2,
  ownerId: null,
  updatedAt: '2025-01-01T00:00:00.000Z',
  taskStepList: [
    {
      id: 'step-0001',
      stepIndex: 0,
      name: '生成',
      generateMode: 'txt2img',
      useParentImage: false,
      promptGroup: [{ id: 'w1', groupName: '水墨', promptText: 'ink wash', custom: '0' }],
      negativePromptGroup: [],
      parameters: { steps: 20 },
      formConfig: [buildControlNetUnit()],
    },
  ],
};

describe('template drafts', () => {
  it('edits a saved template with its steps keyed by their ids', () => {
    const draft = draftFromDetail(DETAIL);
    expect(draft.steps[0]).toMatchObject({ key: 'step-0001', id: 'step-0001', name: '生成' });
    expect(draft.steps[0]).not.toHaveProperty('stepIndex');
  });

  it('saves the draft as a body the server accepts, without tab keys', () => {
    const draft = draftFromDetail(DETAIL);
    const body = saveBodyOf({ ...draft, name: ' 水墨 ', steps: [...draft.steps, newStep(1)] });
    expect(body.name).toBe('水墨');
    expect(body.taskStepList[1]).not.toHaveProperty('key');
    expect(body.taskStepList[1]).not.toHaveProperty('id');
    expect(templateSaveBodySchema.safeParse(body).success).toBe(true);
  });

  it('starts the first step from text and later steps from the previous image', () => {
    expect(newStep(0)).toMatchObject({ name: '步骤 1', generateMode: 'txt2img', useParentImage: false });
    expect(newStep(1)).toMatchObject({ name: '步骤 2', generateMode: 'img2img', useParentImage: true });
    expect(newStep(0).key).not.toBe(newStep(0).key);
  });

  it('creates a new template as one empty step under its task', () => {
    const body = newTemplateBody('task-1', '新模板');
    expect(body).toMatchObject({ taskId: 'task-1', name: '新模板', visibility: 'public' });
    expect(body.taskStepList).toHaveLength(1);
    expect(templateSaveBodySchema.safeParse(body).success).toBe(true);
  });

  it('keeps field presets valid inside a step', () => {
    const sampler = presetField('sampler');
    if (!sampler) throw new Error('preset');
    const body = saveBodyOf({ ...draftFromDetail(DETAIL), steps: [{ ...newStep(0), formConfig: [sampler] }] });
    expect(templateSaveBodySchema.safeParse(body).success).toBe(true);
  });

  it('names the first problem the server would refuse, with its step', () => {
    const draft = draftFromDetail(DETAIL);
    expect(draftProblem(saveBodyOf(draft))).toBeNull();
    expect(draftProblem(saveBodyOf({ ...draft, name: ' ' }))).toBe('请填写模板名称');
    const unnamed = { ...newStep(1), name: '' };
    expect(draftProblem(saveBodyOf({ ...draft, steps: [...draft.steps, unnamed] }))).toBe('步骤 2：请填写步骤名称');
    expect(draftProblem(saveBodyOf({ ...draft, steps: [] }))).toBe('模板至少需要一个步骤');
  });
});
