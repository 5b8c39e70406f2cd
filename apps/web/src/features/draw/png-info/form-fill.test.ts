import {
  type ArtModel,
  type FormConfigItem,
  type LoraStyle,
  PARAMETER_FIELD_PRESETS,
  type PngInfo,
  pngInfoFromParameters,
} from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { fillFromPngInfo, matchModel, promptWords } from './form-fill';

const field = (name: string) => PARAMETER_FIELD_PRESETS[name]!();
const FORM: FormConfigItem[] = ['modelId', 'sampler', 'steps', 'cfgScale', 'width', 'height', 'seed', 'batchSize'].map(
  field,
);

const model = (id: string, checkpoint: string, extra: Partial<ArtModel> = {}): ArtModel => ({
  id,
  modelName: `模型${id}`,
  cover: null,
  baseModel: 'SD 1.5',
  engine: 'builtin',
  checkpoint,
  enabled: true,
  chinesePrompts: false,
  family: 'SD1.5',
  access: { planIds: [] },
  locked: false,
  unlockHint: null,
  ...extra,
});

const lora = (id: string, loraName: string): LoraStyle => ({
  id,
  name: `风格${id}`,
  loraName,
  styleGroup: '国风',
  cover: null,
  description: '',
  family: 'SD1.5',
  engine: 'builtin',
  triggerWords: [],
  defaultWeight: 0.8,
  minWeight: 0,
  maxWeight: 1,
  locked: false,
  unlockHint: null,
});

let ids = 0;
const context = (overrides: Partial<Parameters<typeof fillFromPngInfo>[1]> = {}) => ({
  formConfig: FORM,
  current: {
    modelId: 'm0',
    sampler: 'Euler a',
    steps: 20,
    cfgScale: 7,
    width: 512,
    height: 512,
    seed: -1,
    batchSize: 4,
  },
  models: [
    model('m0', 'builtin-realistic'),
    model('m1', 'builtin-ink'),
    model('m2', 'anything-v5.safetensors [7f96a1a9ca]'),
  ],
  samplers: ['Euler a', 'Euler', 'DPM++ 2M Karras', 'DDIM'],
  loras: [lora('l1', 'ink_style')],
  newId: () => `w${++ids}`,
  ...overrides,
});

const A1111 =
  'masterpiece, (mountain, mist:1.2), 月\nNegative prompt: lowres, text\n' +
  'Steps: 28, Sampler: DPM++ 2M, Schedule type: Karras, CFG scale: 6.5, Seed: 42, Size: 640x2048, Model: builtin-ink';

describe('fillFromPngInfo', () => {
  it('fills words, parameters in the site option names, the model by checkpoint name, and clamps the size', () => {
    const fill = fillFromPngInfo(pngInfoFromParameters(A1111), context());
    expect(fill.promptGroup.map((item) => item.promptText)).toEqual(['masterpiece', '(mountain, mist:1.2)', '月']);
    expect(fill.promptGroup.every((item) => item.custom === '1')).toBe(true);
    expect(fill.negativePromptGroup.map((item) => item.groupName)).toEqual(['lowres', 'text']);
    expect(fill.parameters).toEqual({
      modelId: 'm1',
      sampler: 'DPM++ 2M Karras',
      steps: 28,
      cfgScale: 6.5,
      width: 640,
      height: 1536,
      seed: 42,
      batchSize: 1,
    });
    expect(fill.unmatched).toEqual(['尺寸 640×2048 超出本站范围，已改为 640×1536']);
  });

  it('says which model, sampler and LoRA the site lacks, keeping the current ones', () => {
    const text =
      'a, <lora:ink_style:0.7>, <lora:missing_lora:1>\n' +
      'Steps: 20, Sampler: LMS, Schedule type: Exponential, CFG scale: 7, Seed: 1, Size: 512x512, Model hash: 1234567890, Model: dreamshaper_8, ' +
      'ControlNet 0: "Module: canny, Model: c, Weight: 1.0"';
    const form = [...FORM, { ...field('steps'), name: 'loras' }];
    const fill = fillFromPngInfo(pngInfoFromParameters(text), context({ formConfig: form }));
    expect(fill.parameters).toMatchObject({
      modelId: 'm0',
      sampler: 'Euler a',
      loras: [{ loraId: 'l1', weight: 0.7 }],
    });
    expect(fill.unmatched).toEqual([
      '本站没有采样器「LMS（Exponential）」，已保留原来的采样器',
      '本站没有模型「dreamshaper_8」，已保留原来的模型',
      '本站没有 LoRA「missing_lora」，已忽略',
      '图片用了 1 个 ControlNet 控制，参考图不在图片里，未填入',
    ]);
  });

  it('ignores LoRAs when the form has no LoRA field or the site could not list them', () => {
    const info: PngInfo = { ...pngInfoFromParameters(A1111), loras: [{ name: 'ink_style', weight: 1, hash: null }] };
    expect(fillFromPngInfo(info, context()).unmatched).toContain(
      '这个模板不能使用 LoRA 风格，已忽略 LoRA「ink_style」',
    );
    expect(fillFromPngInfo(info, context({ loras: null })).parameters.loras).toBeUndefined();
  });
});

describe('matching', () => {
  it('matches a model by file name through folders and extensions, or by the hash in an A1111 title', () => {
    const models = context().models;
    expect(matchModel({ model: 'sd15/builtin-ink.safetensors', modelHash: null }, models)?.id).toBe('m1');
    expect(matchModel({ model: 'renamed', modelHash: '7f96a1a9ca' }, models)?.id).toBe('m2');
    expect(matchModel({ model: 'renamed', modelHash: '7f96a1a9' }, models)?.id).toBe('m2');
    expect(matchModel({ model: 'nothing', modelHash: null }, models)).toBeNull();
  });

  it('cuts a prompt at top-level commas and line breaks, once per word', () => {
    expect(promptWords('a, (b, c:1.1), <lora:x:1>, a\nd，e, ')).toEqual(['a', '(b, c:1.1)', '<lora:x:1>', 'd', 'e']);
  });
});
