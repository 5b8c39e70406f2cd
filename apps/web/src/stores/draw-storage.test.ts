import { describe, expect, it } from 'vitest';
import { detail } from './draw-fixtures';
import { DRAW_DRAFT_DEFAULTS, templateDraft } from './draw-state';
import { repairDrawDraft, repairSavedDraw } from './draw-storage';

const saved = { ...DRAW_DRAFT_DEFAULTS, ...templateDraft(detail), helpUrlFlag: '02' };

describe('saved draw draft', () => {
  it('round-trips through JSON', () => {
    expect(repairDrawDraft(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it('starts from defaults for nothing or garbage', () => {
    expect(repairDrawDraft(undefined)).toEqual(DRAW_DRAFT_DEFAULTS);
    expect(repairDrawDraft('x')).toEqual(DRAW_DRAFT_DEFAULTS);
  });

  it('replaces fields of a wrong shape with their defaults', () => {
    const repaired = repairDrawDraft({ ...saved, curPromptGroup: [{ label: 'old shape' }], curParameters: 'x' });
    expect(repaired.curPromptGroup).toEqual([]);
    expect(repaired.curParameters).toEqual({});
    expect(repaired.templateId).toBe('tpl1');
  });

  it('starts over, keeping the tag-tree variant, when the template no longer fits', () => {
    expect(repairDrawDraft({ ...saved, taskTemplateDetails: { templateId: 'tpl1' } })).toEqual({
      ...DRAW_DRAFT_DEFAULTS,
      helpUrlFlag: '02',
    });
    expect(repairDrawDraft({ ...saved, templateId: 'other' }).templateId).toBeNull();
  });

  it('reopens the first step when the saved step is out of range', () => {
    const repaired = repairDrawDraft({ ...saved, stepKey: 5, stepIndex: 5 });
    expect(repaired).toMatchObject({ stepKey: 0, stepIndex: 0, curParameters: { steps: 20 } });
  });

  it('reopens the prompt groups out of 编辑 mode: close buttons do not survive a reload', () => {
    const editing = (group: typeof saved.curPromptGroup) => group.map((item) => ({ ...item, showClose: true }));
    const repaired = repairDrawDraft(
      JSON.parse(
        JSON.stringify({
          ...saved,
          curPromptGroup: editing(saved.curPromptGroup),
          curNegativePromptGroup: editing(saved.curNegativePromptGroup),
        }),
      ),
    );
    expect(repaired.curPromptGroup.length).toBeGreaterThan(0);
    expect(repaired.curNegativePromptGroup.length).toBeGreaterThan(0);
    expect([...repaired.curPromptGroup, ...repaired.curNegativePromptGroup].some((item) => item.showClose)).toBe(false);
  });

  it('keeps the generation track even when the template no longer fits, so a reload resumes polling', () => {
    const track = {
      generateId: 'g1',
      generateTemplateId: 'tpl1',
      currentStepId: 'j2',
      currentStepNum: 2,
      generateStepIds: ['j1', 'j2'],
      nextStepId: null,
      detachedStepId: null,
    };
    expect(repairSavedDraw(JSON.parse(JSON.stringify({ ...saved, ...track })))).toEqual({ ...saved, ...track });
    expect(repairSavedDraw({ ...saved, ...track, templateId: 'other' })).toMatchObject({ templateId: null, ...track });
    expect(repairSavedDraw({ ...saved, generateId: 5 }).generateId).toBeNull();
  });
});
