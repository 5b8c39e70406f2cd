import { type FormConfigItem, PARAMETER_FIELD_PRESETS } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { recallParameters } from './recall';

// 再次生成 and 做同款 put a work's stored parameters back: its model and, where the step offers them, its LoRAs.
const form = (...names: string[]): FormConfigItem[] =>
  names.map((name) => PARAMETER_FIELD_PRESETS[name]?.() ?? { ...PARAMETER_FIELD_PRESETS.steps!(), name });

const stored = { modelId: 'ink', loras: [{ loraId: 'l1', weight: 0.7 }], steps: 12, seed: 5 };

describe('recall of model and LoRAs', () => {
  it('restores the work’s model over the template’s, and its LoRAs when the step has a LoRA field', () => {
    const recalled = recallParameters(
      form('modelId', 'steps', 'seed', 'loras'),
      { modelId: 'gongbi', steps: 20, seed: -1 },
      stored,
      { seed: 5, ownWork: true },
    );
    expect(recalled).toEqual({ modelId: 'ink', loras: [{ loraId: 'l1', weight: 0.7 }], steps: 12, seed: 5 });
  });

  it('keeps LoRAs only where the form knows them: a step without a LoRA field (or value) leaves them out', () => {
    const recalled = recallParameters(form('modelId', 'steps'), { modelId: 'gongbi', steps: 20 }, stored, {
      seed: null,
      ownWork: false,
    });
    expect(recalled).toEqual({ modelId: 'ink', steps: 12 });
  });
});
