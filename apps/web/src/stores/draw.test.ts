import { afterEach, describe, expect, it } from 'vitest';
import type { FinishedRun } from '../features/generate/generation-state';
import { useDraw } from './draw';
import { detail } from './draw-fixtures';

const run = (stepId: string, status: FinishedRun['status'] = 'interrupted'): FinishedRun => ({
  generateId: 'g1',
  templateId: detail.templateId,
  stepId,
  stepNum: 1,
  stepIndex: 0,
  status,
  message: null,
  images: [],
  nextStep: null,
});

/** A finished (interrupted) run of step 1 on screen: its progress panel and its result. */
function afterARun() {
  const draw = useDraw.getState();
  draw.loadTemplateDetails(detail);
  draw.startGeneration({ generateId: 'g1', currentStepId: 'job1', currentStepNum: 1 }, detail.templateId);
  draw.finishGeneration(run('job1'));
}

afterEach(() => useDraw.getState().reset());

describe('switching template or step clears earlier results and progress', () => {
  it('a step tab chosen by hand starts clean', () => {
    afterARun();
    useDraw.getState().selectStep(1);
    expect(useDraw.getState()).toMatchObject({ stepKey: 1, generateId: null, currentStepId: null, finishDataList: [] });
  });

  it('another template starts clean', () => {
    afterARun();
    useDraw.getState().loadTemplateDetails({ ...detail, templateId: 'tpl2' });
    expect(useDraw.getState()).toMatchObject({ templateId: 'tpl2', generateId: null, finishDataList: [] });
  });

  it('下一步 keeps the results it continues from', () => {
    afterARun();
    useDraw.getState().advanceToStep(1);
    expect(useDraw.getState()).toMatchObject({ stepKey: 1, generateId: 'g1' });
    expect(useDraw.getState().finishDataList).toHaveLength(1);
  });

  it('a run still going goes on detached, and once over leaves nothing of it on screen', () => {
    afterARun();
    useDraw
      .getState()
      .startGeneration({ generateId: 'g2', currentStepId: 'job2', currentStepNum: 1 }, detail.templateId);
    useDraw.getState().loadTemplateDetails({ ...detail, templateId: 'tpl2' });
    expect(useDraw.getState()).toMatchObject({
      generateId: 'g2',
      currentStepId: 'job2',
      detachedStepId: 'job2',
      finishDataList: [],
    });
    expect(useDraw.getState().finishGeneration({ ...run('job2', 'succeeded'), generateId: 'g2' })).toBe(true);
    expect(useDraw.getState()).toMatchObject({ generateId: null, currentStepId: null, finishDataList: [] });
  });

  it('a new run is no longer detached', () => {
    afterARun();
    useDraw
      .getState()
      .startGeneration({ generateId: 'g2', currentStepId: 'job2', currentStepNum: 1 }, detail.templateId);
    useDraw.getState().selectStep(1);
    useDraw
      .getState()
      .startGeneration({ generateId: 'g3', currentStepId: 'job3', currentStepNum: 1 }, detail.templateId);
    expect(useDraw.getState()).toMatchObject({ currentStepId: 'job3', detachedStepId: null });
  });
});
