import { describe, expect, it } from 'vitest';
import { detail, word } from './draw-fixtures';
import {
  appendPrompt,
  cleanCustomPrompts,
  DRAW_DRAFT_DEFAULTS,
  type DrawDraft,
  removePrompt,
  switchStep,
  templateDraft,
  withShowClose,
} from './draw-state';

function loaded(stepKey?: number): DrawDraft {
  return { ...DRAW_DRAFT_DEFAULTS, ...templateDraft(detail, stepKey) };
}

describe('loading template details (spec §4)', () => {
  it('picks step 0 by default and takes the generate mode from the first step', () => {
    const draft = loaded();
    expect(draft).toMatchObject({
      taskSelect: 'task1',
      templateId: 'tpl1',
      stepKey: 0,
      stepIndex: 0,
      curGenerateMode: 'txt2img',
      curParameters: { steps: 20 },
    });
    expect(draft.curPromptGroup).toEqual([word('p0')]);
    expect(draft.curNegativePromptGroup).toEqual([word('n0')]);
  });

  it('picks the step at stepKey, keeping the first step’s generate mode', () => {
    const draft = loaded(1);
    expect(draft).toMatchObject({ stepKey: 1, stepIndex: 1, curGenerateMode: 'txt2img', curParameters: { steps: 21 } });
  });

  it('falls back to the first step for a stepKey out of range', () => {
    expect(loaded(7).stepKey).toBe(0);
  });
});

describe('switching steps', () => {
  it('keeps the edits of the step left and restores them on the way back', () => {
    const edited: DrawDraft = { ...loaded(), curParameters: { steps: 42 }, curPromptGroup: [word('mine', '1')] };
    const second = { ...edited, ...switchStep(edited, 1) };
    expect(second).toMatchObject({ stepKey: 1, curGenerateMode: 'upscale', curParameters: { steps: 21 } });
    const back = { ...second, ...switchStep(second, 0) };
    expect(back.curParameters).toEqual({ steps: 42 });
    expect(back.curPromptGroup).toEqual([word('mine', '1')]);
  });
});

describe('prompt groups', () => {
  it('appends a word once', () => {
    const group = appendPrompt([word('a')], word('b'));
    expect(appendPrompt(group, word('a'))).toEqual([word('a'), word('b')]);
  });

  it('removes one word', () => {
    expect(removePrompt([word('a'), word('b')], 'a')).toEqual([word('b')]);
  });

  it('clean removes only the custom "1" items (draw area)', () => {
    expect(cleanCustomPrompts([word('a'), word('b', '1'), word('c')])).toEqual([word('a'), word('c')]);
  });

  it('edit mode sets showClose on every word, and a word added meanwhile can be closed too (spec §4)', () => {
    const editing = withShowClose([word('a'), word('b')], true);
    expect(editing.every((item) => item.showClose)).toBe(true);
    expect(appendPrompt(editing, word('c')).at(-1)).toEqual({ ...word('c'), showClose: true });
    expect(withShowClose(editing, false).some((item) => item.showClose)).toBe(false);
    expect(appendPrompt([word('a')], word('c')).at(-1)).toEqual(word('c'));
  });
});
