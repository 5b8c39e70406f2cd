import type { LoraStyle, PromptGroupItem } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import {
  addLoraUse,
  allowedLoraIds,
  clampWeight,
  filterLoras,
  loraSummary,
  misfit,
  readLoraUses,
  removeLoraUse,
  styleGroupsOf,
  withoutTriggerText,
  withoutTriggerWords,
  withTriggerText,
  withTriggerWords,
} from './lora-picks';

function lora(overrides: Partial<LoraStyle>): LoraStyle {
  return {
    id: 'ink',
    name: '水墨山水',
    loraName: 'hf_ink_wash',
    styleGroup: '国风',
    cover: null,
    description: '',
    family: 'SD1.5',
    engine: 'builtin',
    triggerWords: ['ink wash', 'shuimo'],
    defaultWeight: 0.8,
    minWeight: 0,
    maxWeight: 1.5,
    locked: false,
    unlockHint: null,
    ...overrides,
  };
}

const INK = lora({});
const NEON = lora({
  id: 'neon',
  name: '霓虹',
  loraName: 'hf_neon',
  styleGroup: '赛博',
  family: 'SDXL',
  triggerWords: ['neon'],
});
const PASTEL = lora({ id: 'pastel', name: '粉彩', loraName: 'hf_pastel', triggerWords: ['pastel colors'] });

const word = (id: string, text: string, extra: Partial<PromptGroupItem> = {}): PromptGroupItem => ({
  id,
  groupName: text,
  promptText: text,
  custom: '1',
  ...extra,
});

describe('readLoraUses', () => {
  it('keeps well-formed uses once each, at most five, and drops the rest', () => {
    const value = [
      { loraId: 'a', weight: 0.5 },
      { loraId: 'a', weight: 0.9 },
      { loraId: 'b', weight: 'heavy' },
      'c',
      ...['d', 'e', 'f', 'g', 'h'].map((loraId) => ({ loraId, weight: 1 })),
    ];
    expect(readLoraUses(value).map((use) => use.loraId)).toEqual(['a', 'd', 'e', 'f', 'g']);
    expect(readLoraUses(undefined)).toEqual([]);
    expect(readLoraUses({ loraId: 'a', weight: 1 })).toEqual([]);
  });
});

describe('the allowed set and the model filter', () => {
  it('reads a field without options as any LoRA, and with options as just those', () => {
    expect(allowedLoraIds({})).toBeNull();
    expect(allowedLoraIds({ option: [] })).toBeNull();
    expect([...(allowedLoraIds({ option: [{ label: '水墨', value: 'ink' }] }) ?? [])]).toEqual(['ink']);
  });

  it('lists only the LoRAs of the checkpoint’s family and engine unless every one is asked for', () => {
    const sd15 = { family: 'SD1.5', engine: 'builtin' } as const;
    const base = { query: '', group: null, model: sd15, showAllFamilies: false };
    const comfy = lora({ id: 'comfy', engine: 'comfyui' });
    expect(filterLoras([INK, NEON, PASTEL, comfy], null, base).map((item) => item.id)).toEqual(['ink', 'pastel']);
    expect(filterLoras([INK, NEON, PASTEL, comfy], null, { ...base, showAllFamilies: true })).toHaveLength(4);
    expect(filterLoras([INK, NEON], null, { ...base, model: undefined })).toHaveLength(2);
    expect(misfit(NEON, sd15)).toBe('适用于 SDXL 模型');
    expect(misfit(comfy, sd15)).toBe('适用于其他推理引擎的模型');
    expect(misfit(INK, sd15)).toBeNull();
    expect(misfit(NEON, undefined)).toBeNull();
  });

  it('searches names, backend names and trigger words, within the tab and the allowed set', () => {
    const base = { query: '', group: null, model: undefined, showAllFamilies: false };
    expect(filterLoras([INK, NEON, PASTEL], null, { ...base, query: 'PASTEL c' }).map((item) => item.id)).toEqual([
      'pastel',
    ]);
    expect(filterLoras([INK, NEON, PASTEL], null, { ...base, query: '水墨' }).map((item) => item.id)).toEqual(['ink']);
    expect(filterLoras([INK, NEON, PASTEL], null, { ...base, group: '赛博' }).map((item) => item.id)).toEqual(['neon']);
    expect(filterLoras([INK, NEON, PASTEL], new Set(['pastel']), base).map((item) => item.id)).toEqual(['pastel']);
    expect(styleGroupsOf([INK, NEON, PASTEL])).toEqual(['国风', '赛博']);
  });
});

describe('choosing LoRAs', () => {
  it('adds a LoRA at its default weight once, and no sixth', () => {
    const one = addLoraUse([], INK);
    expect(one).toEqual([{ loraId: 'ink', weight: 0.8 }]);
    expect(addLoraUse(one, INK)).toBe(one);
    const five = ['a', 'b', 'c', 'd', 'e'].map((loraId) => ({ loraId, weight: 1 }));
    expect(addLoraUse(five, INK)).toBe(five);
    expect(removeLoraUse(one, 'ink')).toEqual([]);
  });

  it('keeps a weight within the LoRA’s range', () => {
    expect(clampWeight(INK, 2)).toBe(1.5);
    expect(clampWeight(INK, -1)).toBe(0);
    expect(clampWeight(INK, 0.3333)).toBe(0.33);
  });
});

describe('trigger words in the prompt group', () => {
  it('adds each trigger word as a tag the LoRA owns, skipping words the group already has', () => {
    const group = [word('w1', 'Shuimo')];
    const added = withTriggerWords(group, INK);
    expect(added.map((item) => item.promptText)).toEqual(['Shuimo', 'ink wash']);
    expect(added[1]).toMatchObject({ groupName: 'ink wash', custom: '0' });
    expect(withTriggerWords(added, INK)).toBe(added);
  });

  it('gives new tags a close button while the group is being edited', () => {
    const added = withTriggerWords([word('w1', 'cat', { showClose: true })], NEON);
    expect(added[1]?.showClose).toBe(true);
  });

  it('removes only the tags the LoRA added', () => {
    const group = withTriggerWords(withTriggerWords([word('w1', 'cat')], INK), NEON);
    expect(withoutTriggerWords(group, 'ink').map((item) => item.promptText)).toEqual(['cat', 'neon']);
    expect(withoutTriggerWords(group, 'pastel')).toBe(group);
  });

  it('keeps the tag id within the contract’s 64 characters for long LoRA ids', () => {
    const long = lora({ id: 'x'.repeat(64), triggerWords: ['a', 'b'] });
    const group = withTriggerWords([], long);
    expect(group.every((item) => item.id.length <= 64)).toBe(true);
    expect(withoutTriggerWords(group, long.id)).toEqual([]);
  });
});

describe('trigger words in 自由创作’s typed prompt', () => {
  it('appends the missing words and takes them out again', () => {
    const prompt = withTriggerText('一只猫，shuimo', INK.triggerWords);
    expect(prompt).toBe('一只猫，shuimo, ink wash');
    expect(withTriggerText('', ['neon'])).toBe('neon');
    expect(withoutTriggerText(prompt, INK.triggerWords)).toBe('一只猫');
    expect(withoutTriggerText('一只猫', INK.triggerWords)).toBe('一只猫');
  });
});

describe('loraSummary', () => {
  it('names the LoRAs it knows with their weights and leaves out the others', () => {
    const uses = [
      { loraId: 'ink', weight: 0.8 },
      { loraId: 'gone', weight: 1 },
      { loraId: 'neon', weight: 0.55 },
    ];
    expect(loraSummary(uses, [INK, NEON])).toBe('水墨山水 0.8、霓虹 0.55');
    expect(loraSummary(uses, undefined)).toBeNull();
    expect(loraSummary([], [INK])).toBeNull();
  });
});
