import type { GenerationProgress } from '@huafang/contracts';
import { describe, expect, it } from 'vitest';
import { canvasState, earlierRuns, waitText } from './canvas-state';
import { type FinishedRun, finishedRun } from './generation-state';

function progress(patch: Partial<GenerationProgress> = {}): GenerationProgress {
  return {
    generateId: 'g1',
    status: 'running',
    progress: 40,
    queuePosition: 0,
    etaSeconds: 12,
    previewUrl: null,
    message: null,
    currentStepId: 'job1',
    currentStepNum: 1,
    stepIndex: 0,
    images: [],
    ...patch,
  };
}

const image = { workId: 'w1', url: '/u', thumbUrl: '/t', width: 256, height: 256, seed: 7 };
const done = (stepId: string): FinishedRun =>
  finishedRun(progress({ currentStepId: stepId, status: 'succeeded', images: [image] }), 't1', null);
const track = { generateId: 'g1', currentStepId: 'job1', detachedStepId: null, finishDataList: [] as FinishedRun[] };

describe('the result canvas', () => {
  it('says what to do before any run, and shows the run from the tap on 生成', () => {
    expect(canvasState({ ...track, generateId: null, currentStepId: null }, undefined, false)).toEqual({
      kind: 'empty',
    });
    expect(canvasState({ ...track, finishDataList: [done('job1')] }, undefined, true)).toMatchObject({
      kind: 'running',
      progress: undefined,
    });
  });

  it('follows the current job, not a poll of another one', () => {
    expect(canvasState(track, progress(), false)).toMatchObject({ kind: 'running', progress: { etaSeconds: 12 } });
    expect(canvasState(track, progress({ currentStepId: 'old' }), false)).toMatchObject({ progress: undefined });
  });

  it('shows a finished run with its results, and the earlier ones of this template apart', () => {
    const list = [done('job1'), done('job0')];
    expect(canvasState({ ...track, finishDataList: list }, undefined, false)).toMatchObject({
      kind: 'finished',
      run: { stepId: 'job1' },
    });
    expect(earlierRuns({ ...track, finishDataList: list }).map((run) => run.stepId)).toEqual(['job0']);
  });

  it('keeps a run detached by a switch of template or step in the background', () => {
    expect(canvasState({ ...track, detachedStepId: 'job1' }, progress(), false)).toMatchObject({
      kind: 'background',
    });
  });

  it('shows one wait: the place in the queue with the time until done, or the time left', () => {
    expect(waitText(progress({ status: 'queued', queuePosition: 2, etaSeconds: 30 }))).toBe(
      '排队第 2 位 · 预计还需约 30 秒',
    );
    expect(waitText(progress())).toBe('预计还需约 12 秒');
    expect(waitText(progress({ status: 'succeeded' }))).toBe('');
    expect(waitText(undefined)).toBe('正在获取进度…');
  });
});
