import type { PolishResult, TranslateFeatures, TranslateResult } from '@huafang/contracts';
import { http } from './request';

/**
 * Chinese prompt words to English (prompt syntax is kept). Quiet: callers show a failure beside the text
 * they were translating, and keep that text usable, instead of a notice over the page.
 */
export async function translateToEnglish(text: string): Promise<string> {
  const result = await http.post<TranslateResult>('/api/translate/zh2en', { text }, { quiet: true });
  return result.text;
}

/** Whether the server offers 「AI 润色」 (an LLM is configured). */
export function translateFeatures(): Promise<TranslateFeatures> {
  return http.get<TranslateFeatures>('/api/translate/features', undefined, { quiet: true });
}

/** 「AI 润色」: a short Chinese idea as a fuller description and its English prompt. */
export function polishPrompt(text: string): Promise<PolishResult> {
  return http.post<PolishResult>('/api/translate/polish', { text }, { quiet: true });
}
