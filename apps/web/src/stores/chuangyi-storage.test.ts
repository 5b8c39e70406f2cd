import { describe, expect, it } from 'vitest';
import { GENERATION_TRACK_DEFAULTS } from '../features/generate/generation-state';
import { CHUANGYI_DRAFT_DEFAULTS, repairSavedChuangyi } from './chuangyi-storage';

describe('saved free-creation draft', () => {
  it('starts from the form defaults', () => {
    expect(CHUANGYI_DRAFT_DEFAULTS.parameters).toMatchObject({ width: 512, height: 512, steps: 20, batchSize: 1 });
    expect(repairSavedChuangyi(undefined)).toEqual({ ...CHUANGYI_DRAFT_DEFAULTS, ...GENERATION_TRACK_DEFAULTS });
  });

  it('round-trips prompts, parameters and the generation track', () => {
    const saved = {
      prompt: '水墨画，远山',
      negativePrompt: '模糊',
      parameters: { ...CHUANGYI_DRAFT_DEFAULTS.parameters, steps: 12 },
      generateId: 'g1',
      generateTemplateId: null,
      currentStepId: 'j1',
      currentStepNum: 1,
      generateStepIds: ['j1'],
      nextStepId: null,
      detachedStepId: null,
    };
    expect(repairSavedChuangyi(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it('replaces fields of a wrong shape and fills missing parameters with defaults', () => {
    const repaired = repairSavedChuangyi({ prompt: 3, negativePrompt: null, parameters: { steps: 9 } });
    expect(repaired.prompt).toBe('');
    expect(repaired.negativePrompt).toBe('');
    expect(repaired.parameters).toMatchObject({ steps: 9, width: 512 });
    expect(repairSavedChuangyi({ parameters: 'x' }).parameters).toEqual(CHUANGYI_DRAFT_DEFAULTS.parameters);
  });
});
