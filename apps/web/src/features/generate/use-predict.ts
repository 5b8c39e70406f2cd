import type { GenerateBody } from '@huafang/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useDebounced } from '../../common/use-debounced';
import { generationQueries } from '../../services/generate';
import { useSession } from '../../stores/session';

/** Estimates wait until the user stops changing prompts and parameters for this long. */
export const PREDICT_DEBOUNCE_MS = 400;

/**
 * 预计消耗 · 剩余 · 排队 · 约 N 秒 for the run the page would submit (null: nothing to estimate). The body is
 * compared as JSON, so a re-render with equal values never asks again; a change of credits asks again.
 */
export function usePredict(body: GenerateBody | null) {
  const credits = useSession((state) => state.userData?.credits ?? null);
  const key = useDebounced(body ? JSON.stringify(body) : null, PREDICT_DEBOUNCE_MS);
  return useQuery({ ...generationQueries.predict(key, credits), placeholderData: keepPreviousData });
}
