import {
  joinLines,
  type ProviderRequest,
  send,
  splitLines,
  TranslateProviderError,
  type Translator,
} from './translator.js';

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

export class LibreTranslateTranslator implements Translator {
  readonly name = 'libretranslate';

  constructor(private readonly options: LibreTranslateOptions) {}

  async translate(phrases: string[]): Promise<string[]> {
    const answer = (await send(libreTranslateRequest(this.options, joinLines(phrases)), this.name)) as {
      translatedText?: unknown;
      error?: unknown;
    };
    if (typeof answer.translatedText !== 'string') {
      throw new TranslateProviderError(`${this.name}: ${String(answer.error ?? 'no translatedText in the answer')}`);
    }
    return splitLines(answer.translatedText, phrases.length, this.name);
  }
}
