import { type ProviderRequest, TranslateProviderError, type Translator, translateJoined } from './translator.js';

export type LibreTranslateOptions = { url: string; apiKey?: string };

/** POST {url}/translate of a self-hosted LibreTranslate; `api_key` only when the server asks for one. */
export function libreTranslateRequest(options: LibreTranslateOptions, text: string): ProviderRequest {
  const body: Record<string, string> = { q: text, source: 'zh', target: 'en', format: 'text' };
  if (options.apiKey) body.api_key = options.apiKey;
  return {
    url: `${options.url.replace(/\/+$/, '')}/translate`,
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify(body),
  };
}

type LibreTranslateAnswer = { translatedText?: unknown; error?: unknown };

function translatedText(body: unknown, provider: string): string {
  const answer = body as LibreTranslateAnswer;
  if (typeof answer.translatedText !== 'string') {
    throw new TranslateProviderError(`${provider}: ${String(answer.error ?? 'no translatedText in the answer')}`);
  }
  return answer.translatedText;
}

export class LibreTranslateTranslator implements Translator {
  readonly name = 'libretranslate';

  constructor(private readonly options: LibreTranslateOptions) {}

  translate(phrases: string[]): Promise<string[]> {
    return translateJoined(this.name, phrases, (text) => libreTranslateRequest(this.options, text), translatedText);
  }
}
