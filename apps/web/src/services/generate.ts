import type {
  ControlnetPreviewBody,
  GenerateBody,
  GenerateResult,
  GenerateStepBody,
  GenerationProgress,
  PredictResult,
  UnfinishedGeneration,
  UploadResult,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';

/**
 * Spec §7 Generation. Submit and step reject with body code 10004 (QUOTA_EXHAUSTED) unnotified, for the
 * quota notice; predict and progress are quiet because they run in the background and show failures inline.
 */
export function predictGeneration(body: GenerateBody, signal?: AbortSignal) {
  return http.post<PredictResult>('/api/generate/task/predict', body, { quiet: true, signal });
}

export function submitGeneration(body: GenerateBody) {
  return http.post<GenerateResult>('/api/generate/task', body);
}

/** Next-draw: the template's next step on one result of the generation. */
export function submitGenerationStep(body: GenerateStepBody) {
  return http.post<GenerateResult>('/api/generate/task/step', body);
}

export function fetchGenerationProgress(generateId: string, signal?: AbortSignal) {
  return http.post<GenerationProgress>('/api/generate/task/progress', { generateId }, { quiet: true, signal });
}

/** Resolves the server's message (已中断). */
export async function interruptGeneration(generateId: string): Promise<string> {
  return (await requestEnvelope<null>('/api/generate/task/interrupt', { method: 'POST', body: { generateId } })).msg;
}

/** The user's queued or running generation, so a reloaded page resumes it. */
export function fetchUnfinishedGeneration() {
  return http.get<UnfinishedGeneration>('/api/generate/task/unfinish/task');
}

/** What the chosen 预处理器 makes of a reference image; quiet, the form shows a failure beside the image. */
export function previewControlNet(body: ControlnetPreviewBody, signal?: AbortSignal) {
  return http.post<UploadResult>('/api/generate/task/controlnet/preview', body, { quiet: true, signal });
}

export const generationKeys = {
  progress: (generateId: string | null, stepId: string | null) => ['generate', 'progress', generateId, stepId] as const,
  unfinished: ['generate', 'unfinished'] as const,
  /** `body` is the run as JSON, so equal values share one estimate; a change of credits asks again. */
  predict: (body: string | null, credits: number | null) => ['generate', 'predict', body, credits] as const,
  controlnetPreview: (body: ControlnetPreviewBody) => ['generate', 'controlnetPreview', body] as const,
};

export const generationQueries = {
  /** `body` as JSON (null: nothing to estimate); always asked again, the queue moves. */
  predict: (body: string | null, credits: number | null) =>
    queryOptions({
      queryKey: generationKeys.predict(body, credits),
      queryFn: ({ signal }) => predictGeneration(JSON.parse(body ?? '{}') as GenerateBody, signal),
      enabled: body !== null,
      staleTime: 0,
    }),
  /** Asked afresh on every mount (gcTime 0): an answer cached from an earlier visit could name a finished run. */
  unfinished: () =>
    queryOptions({ queryKey: generationKeys.unfinished, queryFn: fetchUnfinishedGeneration, staleTime: 0, gcTime: 0 }),
  /** The same image and settings give the same preview: it is asked for once. */
  controlnetPreview: (body: ControlnetPreviewBody) =>
    queryOptions({
      queryKey: generationKeys.controlnetPreview(body),
      queryFn: ({ signal }) => previewControlNet(body, signal),
      staleTime: Number.POSITIVE_INFINITY,
      retry: false,
    }),
};
