import { type HelpBody, type HelpType, REQUEST_CACHE_TTL_MS } from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { http, requestEnvelope } from './request';

export function fetchHelpTypes() {
  return http.get<HelpType[]>('/api/help/type');
}

/** Resolves the server's message, which the dialog shows verbatim. */
export async function submitHelp(body: HelpBody): Promise<string> {
  const { msg } = await requestEnvelope<null>('/api/help', { method: 'POST', body });
  return msg;
}

export const helpKeys = {
  types: ['help', 'types'] as const,
};

export const helpQueries = {
  /** The feedback kinds rarely change: reopening the dialog within a minute asks nothing. */
  types: () => queryOptions({ queryKey: helpKeys.types, queryFn: fetchHelpTypes, staleTime: REQUEST_CACHE_TTL_MS }),
};
