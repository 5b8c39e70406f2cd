import { BizCode, type GenerateBody, type GenerateStepBody, type UnfinishedGeneration } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import {
  fetchGenerationProgress,
  generationKeys,
  generationQueries,
  interruptGeneration,
  submitGeneration,
  submitGenerationStep,
} from '../../services/generate';
import { toast } from '../../services/notices';
import { hasCode, isRequestError } from '../../services/request-error';
import { loadCurrentUser } from '../account/current-user';
import { finishedRun, type GenerationStore, isFinished, type NextStep, pollInterval } from './generation-state';

/** A zustand hook over a store with a generation slice (/draw's or /chuangyi's). */
export interface GenerationStoreHook {
  <T>(selector: (state: GenerationStore) => T): T;
  getState(): GenerationStore;
}

export interface UseGenerationOptions {
  store: GenerationStoreHook;
  /** Which unfinished generation this page takes over on mount: /draw a template's, /chuangyi a free one. */
  scope: 'template' | 'free';
  /** The step 下一步 runs after `stepIndex` of the generation's template (none for 自由创作). */
  nextStepOf?: (templateId: string | null, stepIndex: number) => NextStep | null;
}

export interface StepRequest {
  body: GenerateStepBody;
  templateId: string | null;
}

/** What started a run, so 再次生成 and 重试 can send it again. */
export type RunRequest = { kind: 'generate'; body: GenerateBody } | { kind: 'step'; step: StepRequest };

/** A progress poll the server cannot answer any more (another database, or long gone). */
function isGone(error: unknown): boolean {
  return isRequestError(error) && (error.status === 404 || error.code === BizCode.NOT_FOUND);
}

/** Submit and 下一步 alike: a started job becomes the page's current one; 10004 opens the quota notice. */
function useStartMutation<TVariables>(
  store: GenerationStoreHook,
  mutationFn: (variables: TVariables) => ReturnType<typeof submitGeneration>,
  templateIdOf: (variables: TVariables) => string | null,
  remember: (stepId: string, variables: TVariables) => void,
) {
  return useMutation({
    mutationFn,
    onSuccess: (result, variables) => {
      remember(result.currentStepId, variables);
      store.getState().startGeneration(result, templateIdOf(variables));
      // The server reserved the cost: the header's credits change now.
      void loadCurrentUser();
    },
    onError: (error) => {
      if (hasCode(error, BizCode.QUOTA_EXHAUSTED)) store.getState().showApply(error.message);
    },
  });
}

function inScope(unfinished: NonNullable<UnfinishedGeneration>, scope: UseGenerationOptions['scope']): boolean {
  return (unfinished.templateId !== null) === (scope === 'template');
}

/**
 * The current generation of a page: submit, 下一步, polling every 800 ms while it is queued or running,
 * interrupt, resuming an unfinished one on mount, and recording each finished step for the results list.
 */

export function useGeneration({ store, scope, nextStepOf }: UseGenerationOptions) {
  const queryClient = useQueryClient();
  const generateId = store((state) => state.generateId);
  const currentStepId = store((state) => state.currentStepId);

  const progress = useQuery({
    queryKey: generationKeys.progress(generateId, currentStepId),
    queryFn: ({ signal }) => fetchGenerationProgress(generateId ?? '', signal),
    enabled: Boolean(generateId),
    staleTime: 0,
    refetchInterval: (query) => (isGone(query.state.error) ? false : pollInterval(query.state.data)),
  });

  const unfinished = useQuery(generationQueries.unfinished());

  useEffect(() => {
    const found = unfinished.data;
    if (!found || !inScope(found, scope)) return;
    const state = store.getState();
    if (state.generateId !== found.generateId || state.currentStepId !== found.currentStepId) {
      state.resumeGeneration(found);
    }
  }, [unfinished.data, scope, store]);

  useEffect(() => {
    if (isGone(progress.error)) store.getState().clearGeneration();
  }, [progress.error, store]);

  const data = progress.data;
  useEffect(() => {
    if (!data || !isFinished(data.status)) return;
    const templateId = store.getState().generateTemplateId;
    const run = finishedRun(data, templateId, nextStepOf?.(templateId, data.stepIndex) ?? null);
    // Credits come back for images an interrupted or failed run did not paint.
    if (store.getState().finishGeneration(run)) void loadCurrentUser();
  }, [data, store, nextStepOf]);

  // This visit's requests by the job they started; a run resumed after a reload has none.
  const requests = useRef(new Map<string, RunRequest>());
  const submit = useStartMutation(
    store,
    (body: GenerateBody) => submitGeneration(body),
    (body) => body.templateId ?? null,
    (stepId, body) => requests.current.set(stepId, { kind: 'generate', body }),
  );
  const step = useStartMutation(
    store,
    (request: StepRequest) => submitGenerationStep(request.body),
    (request) => request.templateId,
    (stepId, request) => requests.current.set(stepId, { kind: 'step', step: request }),
  );
  const requestOf = useCallback((stepId: string) => requests.current.get(stepId) ?? null, []);
  const { mutate: submitMutate } = submit;
  const { mutate: stepMutate } = step;
  const resend = useCallback(
    (request: RunRequest) => (request.kind === 'generate' ? submitMutate(request.body) : stepMutate(request.step)),
    [submitMutate, stepMutate],
  );

  const interrupt = useMutation({
    mutationFn: () => interruptGeneration(generateId ?? ''),
    onSuccess: (msg) => toast(msg || '已中断', 'success'),
    // Whether it worked or the run had just ended, the next poll shows how it stands.
    onSettled: () => queryClient.invalidateQueries({ queryKey: generationKeys.progress(generateId, currentStepId) }),
  });

  const active = Boolean(generateId) && !isGone(progress.error) && !(data && isFinished(data.status));
  return {
    progress: data,
    progressError: progress.error,
    /** Queued or running (or not polled yet): the page runs one generation at a time. */
    active,
    submitting: submit.isPending || step.isPending,
    submit: submit.mutate,
    runStep: step.mutate,
    /** The request that started a job of this visit. */
    requestOf,
    /** Sends a request again: 再次生成, 重试. */
    resend,
    steppingWorkId: step.isPending ? step.variables.body.imageWorkId : null,
    interrupt: () => interrupt.mutate(),
    interrupting: interrupt.isPending,
  };
}

export type Generation = ReturnType<typeof useGeneration>;
