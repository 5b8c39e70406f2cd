import {
  controlNetUnit,
  type FormConfigItem,
  formField,
  PARAMETER_FIELD_PRESETS,
  type PublicWorkDetail,
} from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  canRecall,
  formParameterNames,
  recallFromPublic,
  recallParameters,
  runnableStepKey,
  stepKeyOf,
} from './recall';

const preset = (name: string): FormConfigItem => {
  const make = PARAMETER_FIELD_PRESETS[name];
  if (!make) throw new Error(`no preset ${name}`);
  return make();
};

const FORM: FormConfigItem[] = [
  preset('modelId'),
  preset('width'),
  preset('height'),
  preset('batchSize'),
  preset('seed'),
  formField({ type: 'collapse', name: 'advanced', text: '高级设置', children: [preset('steps'), preset('sampler')] }),
  controlNetUnit(),
];

describe('stepKeyOf', () => {
  it('finds the step by its stepIndex, else the first', () => {
    const steps = [{ stepIndex: 0 }, { stepIndex: 2 }];
    expect(stepKeyOf(steps, 2)).toBe(1);
    expect(stepKeyOf(steps, 1)).toBe(0);
    expect(stepKeyOf([], 0)).toBe(0);
  });
});

describe('runnableStepKey', () => {
  it('opens a step that runs from 生成: a step on the previous result goes back to the one before it', () => {
    const steps = [
      { stepIndex: 0, useParentImage: false },
      { stepIndex: 1, useParentImage: true },
      { stepIndex: 2, useParentImage: true },
      { stepIndex: 3, useParentImage: false },
    ];
    expect(runnableStepKey(steps, 1)).toBe(0);
    expect(runnableStepKey(steps, 2)).toBe(0);
    expect(runnableStepKey(steps, 3)).toBe(3);
    expect(runnableStepKey(steps, 0)).toBe(0);
  });
});

describe('formParameterNames', () => {
  it('flattens plain collapses and keeps controlNets as one name', () => {
    expect([...formParameterNames(FORM)].sort()).toEqual(
      ['batchSize', 'controlNets', 'height', 'modelId', 'sampler', 'seed', 'steps', 'width'].sort(),
    );
  });
});

describe('recallParameters', () => {
  const current = { modelId: 'm1', width: 512, height: 512, batchSize: 4, seed: -1, steps: 20, sampler: 'Euler a' };
  const recalled = {
    modelId: 'm2',
    width: 256,
    height: 256,
    batchSize: 1,
    seed: 42,
    steps: 8,
    cfgScale: 9,
    sampler: 'DPM++ 2M',
    upscaleFactor: 2,
    controlNets: [{ controlnetModule: 'canny', inputImageFileId: 'f1' }],
  };

  it('puts the work back over the current values, keeping only names the form knows, one image and the seed', () => {
    expect(recallParameters(FORM, current, recalled, { seed: 42, ownWork: true })).toEqual({
      modelId: 'm2',
      width: 256,
      height: 256,
      batchSize: 1,
      seed: 42,
      steps: 8,
      sampler: 'DPM++ 2M',
      controlNets: [{ controlnetModule: 'canny', inputImageFileId: 'f1' }],
    });
  });

  it('leaves the images of somebody else’s work and the current seed when none is given', () => {
    const result = recallParameters(FORM, { ...current, controlNets: [{}] }, recalled, { seed: null, ownWork: false });
    expect(result.controlNets).toEqual([{}]);
    expect(result.seed).toBe(42);
    expect(recallParameters(FORM, current, { steps: 8 }, { seed: null, ownWork: false }).seed).toBe(-1);
  });

  it('does not add seed or batchSize to a form without them', () => {
    expect(recallParameters([preset('steps')], {}, { steps: 6, seed: 3 }, { seed: 3, ownWork: true })).toEqual({
      steps: 6,
    });
  });
});

describe('recall sources', () => {
  const publicWork: PublicWorkDetail = {
    id: 'w1',
    thumbUrl: '/t',
    url: '/u',
    width: 256,
    height: 256,
    createdAt: '2025-05-09T00:00:00Z',
    publishedAt: '2025-05-09T00:00:00Z',
    mode: 'txt2img',
    templateId: null,
    templateName: '',
    views: 3,
    likes: 0,
    favorites: 0,
    liked: false,
    favorited: false,
    author: { nickname: '作者', avatar: null },
    hidePrompt: true,
    prompt: null,
    negativePrompt: null,
    sourcePrompt: null,
    sourceNegativePrompt: null,
    promptGroup: null,
    negativePromptGroup: null,
    parameters: null,
    modelName: null,
    loraStyles: [],
    stepIndex: 0,
  };

  it('recalls a public work without its author’s images, and nothing from a hidden free creation', () => {
    expect(recallFromPublic({ ...publicWork, templateId: 't1' })).toMatchObject({ ownWork: false, seed: null });
    expect(canRecall(recallFromPublic({ ...publicWork, templateId: 't1' }))).toBe(true);
    expect(canRecall(recallFromPublic(publicWork))).toBe(false);
    expect(canRecall(recallFromPublic({ ...publicWork, hidePrompt: false, prompt: '山水' }))).toBe(true);
  });

  it('puts back the words the author wrote, not the English the model read', () => {
    const translated = { ...publicWork, hidePrompt: false, prompt: 'ink landscape', sourcePrompt: '水墨山水' };
    expect(recallFromPublic(translated).prompt).toBe('水墨山水');
    expect(recallFromPublic({ ...translated, sourcePrompt: null }).prompt).toBe('ink landscape');
  });
});
