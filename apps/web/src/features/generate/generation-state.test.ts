import type { GenerationProgress } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { step } from '../../stores/draw-fixtures';
import {
  createGenerationActions,
  type FinishedRun,
  finishedRun,
  GENERATION_DEFAULTS,
  GENERATION_TRACK_DEFAULTS,
  type GenerationSlice,
  MAX_FINISHED_RUNS,
  nextTemplateStep,
  POLL_INTERVAL_MS,
  pollInterval,
  repairGenerationTrack,
  startedTrack,
  withFinishedRun,
} from './generation-state';

const image = (workId: string) => ({
  workId,
  url: `/api/works/image/${workId}`,
  thumbUrl: `/api/works/thumb/${workId}`,
  width: 256,
  height: 256,
  seed: 7,
});

function progress(patch: Partial<GenerationProgress> = {}): GenerationProgress {
  return {
    generateId: 'g1',
    status: 'running',
    progress: 40,
    queuePosition: 0,
    etaSeconds: 3,
    previewUrl: null,
    message: null,
    currentStepId: 'job1',
    currentStepNum: 1,
    stepIndex: 0,
    images: [],
    ...patch,
  };
}

const NEXT = { id: 's1', stepIndex: 1, name: '步骤1' };

function run(stepId: string): FinishedRun {
  return finishedRun(progress({ currentStepId: stepId, status: 'succeeded', images: [image(stepId)] }), 't1', null);
}

/** A tiny store over the real actions, as zustand would hold them. */
function store() {
  let state: GenerationSlice = { ...GENERATION_DEFAULTS };
  const actions = createGenerationActions(
    (patch) => {
      state = { ...state, ...patch };
    },
    () => state,
  );
  return { actions, read: () => state };
}

describe('polling', () => {
  it('polls every 800 ms until the step is over', () => {
    expect(pollInterval(undefined)).toBe(POLL_INTERVAL_MS);
    expect(pollInterval(progress({ status: 'queued' }))).toBe(800);
    expect(pollInterval(progress({ status: 'running' }))).toBe(800);
    for (const status of ['succeeded', 'failed', 'interrupted'] as const) {
      expect(pollInterval(progress({ status }))).toBe(false);
    }
  });
});

describe('the generation track', () => {
  it('starts a new generation, and a 下一步 adds its job to the same one', () => {
    const first = startedTrack(
      GENERATION_TRACK_DEFAULTS,
      { generateId: 'g1', currentStepId: 'j1', currentStepNum: 1 },
      't1',
    );
    expect(first).toEqual({
      generateId: 'g1',
      generateTemplateId: 't1',
      currentStepId: 'j1',
      currentStepNum: 1,
      generateStepIds: ['j1'],
      nextStepId: null,
      detachedStepId: null,
    });
    const second = startedTrack(
      { ...first, nextStepId: 's1' },
      { generateId: 'g1', currentStepId: 'j2', currentStepNum: 2 },
      't1',
    );
    expect(second).toMatchObject({
      currentStepId: 'j2',
      currentStepNum: 2,
      generateStepIds: ['j1', 'j2'],
      nextStepId: null,
    });
    const other = startedTrack(second, { generateId: 'g2', currentStepId: 'j3', currentStepNum: 1 }, null);
    expect(other).toMatchObject({ generateId: 'g2', generateTemplateId: null, generateStepIds: ['j3'] });
  });

  it('survives a reload, and anything broken falls back to no generation', () => {
    const saved = startedTrack(
      GENERATION_TRACK_DEFAULTS,
      { generateId: 'g1', currentStepId: 'j1', currentStepNum: 1 },
      't1',
    );
    expect(repairGenerationTrack(JSON.parse(JSON.stringify({ ...saved, other: 1 })))).toEqual(saved);
    expect(repairGenerationTrack({ generateId: 'g1', currentStepId: 'j1', currentStepNum: 1 })).toMatchObject({
      generateId: 'g1',
      generateTemplateId: null,
      generateStepIds: [],
    });
    expect(repairGenerationTrack({ generateId: 42 })).toEqual(GENERATION_TRACK_DEFAULTS);
    expect(repairGenerationTrack(null)).toEqual(GENERATION_TRACK_DEFAULTS);
  });
});

describe('finished runs', () => {
  it('offers 下一步 only on a run that produced images', () => {
    expect(finishedRun(progress({ status: 'succeeded', images: [image('w1')] }), 't1', NEXT).nextStep).toEqual(NEXT);
    expect(finishedRun(progress({ status: 'interrupted' }), 't1', NEXT).nextStep).toBeNull();
  });

  it('keeps each step once, newest first, at most MAX_FINISHED_RUNS', () => {
    const list = withFinishedRun(withFinishedRun([], run('a')), run('b'));
    expect(list.map((item) => item.stepId)).toEqual(['b', 'a']);
    expect(withFinishedRun(list, run('a'))).toBe(list);
    let many: FinishedRun[] = [];
    for (let i = 0; i < MAX_FINISHED_RUNS + 3; i++) many = withFinishedRun(many, run(`r${i}`));
    expect(many).toHaveLength(MAX_FINISHED_RUNS);
    expect(many[0]?.stepId).toBe(`r${MAX_FINISHED_RUNS + 2}`);
  });

  it('records a finish once and sets nextStepId for the current step', () => {
    const { actions, read } = store();
    actions.startGeneration({ generateId: 'g1', currentStepId: 'job1', currentStepNum: 1 }, 't1');
    const done = finishedRun(progress({ status: 'succeeded', images: [image('w1')] }), 't1', NEXT);
    expect(actions.finishGeneration(done)).toBe(true);
    expect(actions.finishGeneration(done)).toBe(false);
    expect(read()).toMatchObject({ nextStepId: 's1', finishDataList: [done] });
    actions.clearGeneration();
    expect(read()).toMatchObject({ generateId: null, currentStepId: null, finishDataList: [done] });
  });

  it('opens and closes the quota notice with the server message', () => {
    const { actions, read } = store();
    actions.showApply('算力不足：本次生成需要 1 点，当前剩余 0 点。');
    expect(read()).toMatchObject({ isApplyShow: true, applyMsg: '算力不足：本次生成需要 1 点，当前剩余 0 点。' });
    actions.hideApply();
    expect(read().isApplyShow).toBe(false);
  });
});

describe('the next template step', () => {
  const steps = [step(0, 'txt2img'), step(1, 'upscale')];
  it('is the step after the one that ran, none after the last', () => {
    expect(nextTemplateStep(steps, 0)).toEqual({ id: 's1', stepIndex: 1, name: '步骤1' });
    expect(nextTemplateStep(steps, 1)).toBeNull();
    expect(nextTemplateStep(steps, 9)).toBeNull();
  });
});
