import { useCallback, useRef, useState } from 'react';
import { isRequestError } from '../../services/request-error';
import { translateToEnglish } from '../../services/translate';

export type TranslationState =
  | { status: 'idle' }
  | { status: 'loading'; source: string }
  | { status: 'done'; source: string; english: string }
  | { status: 'error'; source: string; message: string };

export type TranslationOutcome = { ok: true; english: string } | { ok: false; message: string };

const FALLBACK_ERROR = '翻译失败，请稍后重试';

function failureText(error: unknown): string {
  return isRequestError(error) && error.message ? error.message : FALLBACK_ERROR;
}

/**
 * One word at a time to English. Asking again for the same text (blur, then Enter) shares the request in
 * flight or the answer already in, so a word costs one call of the rate-limited endpoint; a failure may be retried.
 */
export function useWordTranslation() {
  const [state, setState] = useState<TranslationState>({ status: 'idle' });
  const last = useRef<{ source: string; outcome: Promise<TranslationOutcome> } | null>(null);

  const translate = useCallback((text: string): Promise<TranslationOutcome> => {
    const source = text.trim();
    if (last.current?.source === source) return last.current.outcome;
    setState({ status: 'loading', source });
    const outcome = translateToEnglish(source).then(
      (english): TranslationOutcome => ({ ok: true, english }),
      (error: unknown): TranslationOutcome => ({ ok: false, message: failureText(error) }),
    );
    const entry = { source, outcome };
    last.current = entry;
    void outcome.then((result) => {
      // A newer word took over while this one was out: its answer no longer describes the input.
      if (last.current !== entry) return;
      if (result.ok) setState({ status: 'done', source, english: result.english });
      else {
        setState({ status: 'error', source, message: result.message });
        last.current = null;
      }
    });
    return outcome;
  }, []);

  return { state, translate };
}
