import type { HelpBody, HelpType } from '@huafang/contracts';
import { http, requestEnvelope } from './request';

export function fetchHelpTypes() {
  return http.get<HelpType[]>('/api/help/type', undefined, { cache: true });
}

/** Resolves the server's message, which the dialog shows verbatim. */
export async function submitHelp(body: HelpBody): Promise<string> {
  const { msg } = await requestEnvelope<null>('/api/help', { method: 'POST', body });
  return msg;
}
