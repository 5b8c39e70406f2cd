import { loraField } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  checkParameters,
  checkTypedLoras,
  type ParameterContext,
} from '../../src/features/generate/parameter-check.js';
import { takeLoraTags } from '../../src/features/generate/prompt-loras.js';

/** The form-config convention of the `loras` field and the `<lora:…>` tags, checked without an app. */
const ctx: ParameterContext = {
  userId: 'u',
  modelEnabled: async () => true,
  defaultModelId: async () => 'm',
  requireOwnFile: async () => undefined,
  sizeRange: async () => ({ width: 1024, height: 1024, min: 512, max: 2048, family: 'SDXL' }),
};
const field = (preset: { loraId: string; weight: number }[], allowed: string[]) =>
  loraField({ preset, allowed: allowed.map((id) => ({ label: id, value: id })) });

describe('generate: the loras parameter of a form', () => {
  it('takes the step preset, lets the user choose within the allowed set and the preset, and refuses others', async () => {
    const form = [field([{ loraId: 'ink', weight: 0.8 }], ['neon', 'pastel'])];
    const preset = await checkParameters(form, {}, {}, ctx, false);
    expect(preset.loras).toEqual([{ loraId: 'ink', weight: 0.8 }]);
    const chosen = await checkParameters(
      form,
      {},
      {
        loras: [
          { loraId: 'ink', weight: 0.5 },
          { loraId: 'neon', weight: 1 },
        ],
      },
      ctx,
      false,
    );
    expect(chosen.loras).toEqual([
      { loraId: 'ink', weight: 0.5 },
      { loraId: 'neon', weight: 1 },
    ]);
    await expect(checkParameters(form, {}, { loras: [{ loraId: 'sepia', weight: 1 }] }, ctx, false)).rejects.toThrow(
      'LoRA 风格的取值不在可选范围内',
    );
    const six = Array.from({ length: 6 }, () => ({ loraId: 'neon', weight: 1 }));
    await expect(checkParameters(form, {}, { loras: six }, ctx, false)).rejects.toThrow('一次最多使用 5 个 LoRA 风格');
  });

  it('accepts any LoRA when the field lists none, and ignores the user’s LoRAs when the form has no field', async () => {
    const open = await checkParameters([loraField()], {}, { loras: [{ loraId: 'x', weight: 0.3 }] }, ctx, false);
    expect(open.loras).toEqual([{ loraId: 'x', weight: 0.3 }]);
    const none = await checkParameters([], { loras: [] }, { loras: [{ loraId: 'x', weight: 0.3 }] }, ctx, false);
    expect(none.loras).toEqual([]);
  });

  it('holds LoRAs typed in a prompt to the same field: its allowed set, five at most, none without the field', () => {
    const form = [field([{ loraId: 'ink', weight: 0.8 }], ['neon'])];
    const typed = [
      { loraId: 'ink', weight: 0.8 },
      { loraId: 'neon', weight: 0.5 },
    ];
    expect(checkTypedLoras(form, {}, typed)).toEqual(typed);
    expect(() => checkTypedLoras(form, {}, [{ loraId: 'sepia', weight: 1 }])).toThrow('LoRA 风格的取值不在可选范围内');
    const six = Array.from({ length: 6 }, (_, i) => ({ loraId: `l${i}`, weight: 1 }));
    expect(() => checkTypedLoras([loraField()], {}, six)).toThrow('一次最多使用 5 个 LoRA 风格');
    expect(() => checkTypedLoras([], {}, [{ loraId: 'ink', weight: 1 }])).toThrow('这个模板不能使用 LoRA 风格');
  });

  it('draws at the family default size when the form only defaults it', async () => {
    const sized = await checkParameters([loraField()], {}, {}, ctx, false);
    expect(sized).toMatchObject({ width: 1024, height: 1024 });
  });
});

describe('generate: <lora:name:weight> in a prompt', () => {
  it('takes the tags out of the words, with weight 1 when none is written, full-width punctuation too', () => {
    const { group, tags } = takeLoraTags([
      { id: 'a', groupName: '灯塔 <lora:ink:0.6>', promptText: 'lighthouse, <lora:ink:0.6>', custom: '1' },
      { id: 'b', groupName: '＜lora：neon＞', promptText: '＜lora：neon＞', custom: '1' },
      { id: 'c', groupName: '夜晚', promptText: 'night', custom: '1' },
    ]);
    expect(tags).toEqual([
      { name: 'ink', weight: 0.6 },
      { name: 'neon', weight: 1 },
    ]);
    expect(group).toEqual([
      { id: 'a', groupName: '灯塔', promptText: 'lighthouse', custom: '1' },
      { id: 'c', groupName: '夜晚', promptText: 'night', custom: '1' },
    ]);
    expect(() => takeLoraTags([{ id: 'a', groupName: '<lora:ink:abc>', promptText: '', custom: '1' }])).toThrow(
      '提示词中的 LoRA「ink」权重须为数字',
    );
  });
});
