import type { TranslateResult } from '@huafang/contracts';
import { http } from './request';

/**
 * Chinese prompt words to English (prompt syntax is kept). Quiet: callers show a failure beside the text
 * they were translating, and keep that text usable, instead of a notice over the page.
 */
export async function translateToEnglish(text: string): Promise<string> {
  const result = await http.post<TranslateResult>('/api/translate/zh2en', { text }, { quiet: true });
  return result.text;
}
