import type { FormOption } from '@huafang/contracts';
import { http } from './request';

/** Options of a form field's `url` (samplers, sizes, ControlNet modules…); they rarely change, so cached. */
export function fetchFormOptions(url: string) {
  return http.get<FormOption[]>(url, undefined, { cache: true });
}
