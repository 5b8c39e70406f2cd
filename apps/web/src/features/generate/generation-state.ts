import {
  type GeneratedImage,
  type GenerateResult,
  type GenerationProgress,
  type GenerationStatus,
  type TaskStep,
  UNFINISHED_STATUSES,
  type UnfinishedGeneration,
} from '@huafang/contracts';
import { z } from 'zod';

/** How often a queued or running generation is polled. */
export const POLL_INTERVAL_MS = 800;
/** Finished runs kept for 本次更早的结果; older ones are in 我的作品. */
export const MAX_FINISHED_RUNS = 12;

/** The template step 下一步 runs on a chosen result. */
export interface NextStep {
  id: string;
  stepIndex: number;
  name: string;
}

/** Spec §3 draw state of the current generation; it survives a reload, so polling resumes. */
export interface GenerationTrack {
  generateId: string | null;
  /** The generation's template (null for 自由创作): 下一步 only runs that template's steps. */
  generateTemplateId: string | null;
  /** The job of the step being run or last run. */
  currentStepId: string | null;
  /** 1 for the first step of the generation, 2 after one 下一步… */
  currentStepNum: number;
  /** Every job of the generation, in order. */
  generateStepIds: string[];
  /** The template step after the one that finished, when there is one. */
  nextStepId: string | null;
  /**
   * A job left running when the user switched template or step: it goes on (and is paid for) but its results
   * belong to what was on screen before, so they are not shown as this template's; they land in 我的作品.
   */
  detachedStepId: string | null;
}

/** One finished step of a generation, kept for this visit. */
export interface FinishedRun {
  generateId: string;
  templateId: string | null;
  stepId: string;
  stepNum: number;
  stepIndex: number;
  status: GenerationStatus;
  message: string | null;
  images: GeneratedImage[];
  nextStep: NextStep | null;
}

export interface GenerationSlice extends GenerationTrack {
  /** Newest first. */
  finishDataList: FinishedRun[];
  /** The quota notice (10004) and the server's message. */
  isApplyShow: boolean;
  applyMsg: string;
}

export interface GenerationActions {
  startGeneration(result: GenerateResult, templateId: string | null): void;
  resumeGeneration(unfinished: NonNullable<UnfinishedGeneration>): void;
  /** Records a finished step once (a detached one is forgotten instead); false when it was already recorded. */
  finishGeneration(run: FinishedRun): boolean;
  /** Forgets a generation the server no longer knows. */
  clearGeneration(): void;
  showApply(message: string): void;
  hideApply(): void;
}

export type GenerationStore = GenerationSlice & GenerationActions;

export const GENERATION_TRACK_DEFAULTS: GenerationTrack = {
  generateId: null,
  generateTemplateId: null,
  currentStepId: null,
  currentStepNum: 0,
  generateStepIds: [],
  nextStepId: null,
  detachedStepId: null,
};

export const GENERATION_DEFAULTS: GenerationSlice = {
  ...GENERATION_TRACK_DEFAULTS,
  finishDataList: [],
  isApplyShow: false,
  applyMsg: '',
};

export function isFinished(status: GenerationStatus): boolean {
  return !UNFINISHED_STATUSES.includes(status);
}

/** TanStack Query's refetchInterval: poll until the step is over. */
export function pollInterval(progress: GenerationProgress | undefined): number | false {
  return progress && isFinished(progress.status) ? false : POLL_INTERVAL_MS;
}

/** A submit starts a generation; a 下一步 adds a job to the same one. */
export function startedTrack(
  track: GenerationTrack,
  result: GenerateResult,
  templateId: string | null,
): GenerationTrack {
  const sameGeneration = track.generateId === result.generateId;
  return {
    generateId: result.generateId,
    generateTemplateId: templateId,
    currentStepId: result.currentStepId,
    currentStepNum: result.currentStepNum,
    generateStepIds: sameGeneration ? [...track.generateStepIds, result.currentStepId] : [result.currentStepId],
    nextStepId: null,
    detachedStepId: null,
  };
}

export function resumedTrack(unfinished: NonNullable<UnfinishedGeneration>): GenerationTrack {
  return {
    generateId: unfinished.generateId,
    generateTemplateId: unfinished.templateId,
    currentStepId: unfinished.currentStepId,
    currentStepNum: unfinished.currentStepNum,
    generateStepIds: [unfinished.currentStepId],
    nextStepId: null,
    detachedStepId: null,
  };
}

export function finishedRun(
  progress: GenerationProgress,
  templateId: string | null,
  nextStep: NextStep | null,
): FinishedRun {
  return {
    generateId: progress.generateId,
    templateId,
    stepId: progress.currentStepId,
    stepNum: progress.currentStepNum,
    stepIndex: progress.stepIndex,
    status: progress.status,
    message: progress.message,
    images: progress.images,
    // Only finished images can go on to the next step.
    nextStep: progress.images.length > 0 ? nextStep : null,
  };
}

/** Newest first, each step once, at most MAX_FINISHED_RUNS. */
export function withFinishedRun(list: FinishedRun[], run: FinishedRun): FinishedRun[] {
  if (list.some((item) => item.stepId === run.stepId)) return list;
  return [run, ...list].slice(0, MAX_FINISHED_RUNS);
}

/**
 * Switching template or step: the results and the progress of earlier runs belong to what was on screen
 * before, so they go. A run still queued or running goes on in the background (detached): the page can still
 * interrupt it, and its result is not shown as the new template's.
 */
export function withoutEarlierRuns(state: GenerationSlice): Partial<GenerationSlice> {
  const running = state.generateId !== null && !state.finishDataList.some((run) => run.stepId === state.currentStepId);
  return running
    ? { finishDataList: [], detachedStepId: state.currentStepId }
    : { ...GENERATION_TRACK_DEFAULTS, finishDataList: [] };
}

/** The template step after the one at stepIndex, for 下一步. */
export function nextTemplateStep(steps: TaskStep[], stepIndex: number): NextStep | null {
  const position = steps.findIndex((step) => step.stepIndex === stepIndex);
  const next = position < 0 ? undefined : steps[position + 1];
  return next ? { id: next.id, stepIndex: next.stepIndex, name: next.name } : null;
}

/** The actions of a store holding a GenerationSlice; /draw and /chuangyi each keep their own. */
export function createGenerationActions(
  set: (patch: Partial<GenerationSlice>) => void,
  get: () => GenerationSlice,
): GenerationActions {
  return {
    startGeneration(result, templateId) {
      set(startedTrack(get(), result, templateId));
    },
    resumeGeneration(unfinished) {
      set(resumedTrack(unfinished));
    },
    finishGeneration(run) {
      const state = get();
      // A detached run is over: the page forgets it, and shows nothing of it.
      if (run.stepId === state.detachedStepId) {
        set(GENERATION_TRACK_DEFAULTS);
        return true;
      }
      const list = withFinishedRun(state.finishDataList, run);
      if (list === state.finishDataList) return false;
      const current = state.currentStepId === run.stepId;
      set({ finishDataList: list, ...(current ? { nextStepId: run.nextStep?.id ?? null } : {}) });
      return true;
    },
    clearGeneration() {
      set(GENERATION_TRACK_DEFAULTS);
    },
    showApply(applyMsg) {
      set({ isApplyShow: true, applyMsg });
    },
    hideApply() {
      set({ isApplyShow: false });
    },
  };
}

const trackSchema = z.object({
  generateId: z.string().min(1),
  generateTemplateId: z.string().nullable().catch(null),
  currentStepId: z.string().min(1),
  currentStepNum: z.number().int().min(1),
  generateStepIds: z.array(z.string()).catch([]),
  nextStepId: z.string().nullable().catch(null),
  detachedStepId: z.string().nullable().catch(null),
});

/** The saved track, or none when it does not fit: the unfinished lookup still finds a running generation. */
export function repairGenerationTrack(raw: unknown): GenerationTrack {
  const parsed = trackSchema.safeParse(raw);
  return parsed.success ? parsed.data : { ...GENERATION_TRACK_DEFAULTS };
}

export function pickGenerationTrack(state: GenerationTrack): GenerationTrack {
  return {
    generateId: state.generateId,
    generateTemplateId: state.generateTemplateId,
    currentStepId: state.currentStepId,
    currentStepNum: state.currentStepNum,
    generateStepIds: state.generateStepIds,
    nextStepId: state.nextStepId,
    detachedStepId: state.detachedStepId,
  };
}
