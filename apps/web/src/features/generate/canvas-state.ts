import type { GeneratedImage, GenerationProgress } from '@huafang/contracts';
import type { FinishedRun, GenerationSlice } from './generation-state';

/** What the result canvas shows, from the tap on 生成 to the finished picture. */
export type CanvasState =
  /** Nothing run yet for this template and step: what to do. */
  | { kind: 'empty' }
  /** A run of what was on screen before (another template or step) still goes on; it can be interrupted. */
  | { kind: 'background'; progress: GenerationProgress | undefined }
  /**
   * From the tap on 生成 (the server has not answered yet) through queued and running; `images` are those of the
   * batch already painted.
   */
  | { kind: 'running'; progress: GenerationProgress | undefined; images: GeneratedImage[] }
  /** Over: succeeded, failed or interrupted (with the images it kept). */
  | { kind: 'finished'; progress: GenerationProgress | undefined; run: FinishedRun };

type Track = Pick<GenerationSlice, 'generateId' | 'currentStepId' | 'detachedStepId' | 'finishDataList'>;

export function canvasState(track: Track, progress: GenerationProgress | undefined, submitting: boolean): CanvasState {
  if (submitting) return { kind: 'running', progress: undefined, images: [] };
  const { generateId, currentStepId, detachedStepId, finishDataList } = track;
  if (!generateId || !currentStepId) return { kind: 'empty' };
  const polled = progress && progress.currentStepId === currentStepId ? progress : undefined;
  if (currentStepId === detachedStepId) return { kind: 'background', progress: polled };
  const run = finishDataList.find((item) => item.stepId === currentStepId);
  if (run) return { kind: 'finished', progress: polled, run };
  return { kind: 'running', progress: polled, images: polled?.images ?? [] };
}

/** The earlier runs of this template (the steps 下一步 continued from, earlier 再次生成) with images. */
export function earlierRuns(track: Track): FinishedRun[] {
  return track.finishDataList.filter((run) => run.stepId !== track.currentStepId && run.images.length > 0);
}

/**
 * The one wait the page shows. The server's etaSeconds is already the time until the picture is done: for a
 * queued job it counts the jobs ahead and its own run (turn-taking.ts), for a running one what is left.
 */
export function waitText(progress: GenerationProgress | undefined): string {
  if (!progress) return '正在获取进度…';
  if (progress.status === 'queued') return `排队第 ${progress.queuePosition} 位 · 预计还需约 ${progress.etaSeconds} 秒`;
  if (progress.status === 'running') return `预计还需约 ${progress.etaSeconds} 秒`;
  return '';
}
