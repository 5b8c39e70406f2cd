import type { FormOption } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { queryForId } from './query-for-id';
import { http } from './request';

/** Options of a form field's `url` (samplers, sizes, ControlNet modules…). */
export function fetchFormOptions(url: string) {
  return http.get<FormOption[]>(url);
}

/** The option list /draw's model field reads; the galleries name models from it. */
export const MODEL_OPTIONS_URL = '/api/options/models';

export const optionKeys = {
  formOptions: (url: string) => ['formOptions', url] as const,
};

export const optionQueries = {
  /** They rarely change, so one answer serves the whole visit: /draw's fields, 任务配置's sources, the galleries. */
  formOptions: (url: string | undefined) =>
    queryOptions({
      ...queryForId(url, optionKeys.formOptions, fetchFormOptions),
      staleTime: Number.POSITIVE_INFINITY,
    }),
};
