/** A Chinese → English engine; it sees only the Chinese phrases of a prompt, never its syntax. */
export interface Translator {
  readonly name: string;
  /** Each phrase translated, same count and order; rejects rather than return a partial answer. */
  translate(phrases: string[]): Promise<string[]>;
}

/** An external translation service failed or answered something unusable. */
export class TranslateProviderError extends Error {
  override readonly name = 'TranslateProviderError';
}

export const PROVIDER_TIMEOUT_MS = 8000;

/** An HTTP request a provider sends, built by a pure function so its shape can be tested without a network. */
export type ProviderRequest = { url: string; method: 'POST'; headers: Record<string, string>; body: string };

export async function send(request: ProviderRequest, provider: string): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    });
  } catch (err) {
    throw new TranslateProviderError(`${provider}: ${(err as Error).message}`, { cause: err });
  }
  const body = await res.text();
  if (!res.ok) throw new TranslateProviderError(`${provider}: HTTP ${res.status} ${body.slice(0, 200)}`);
  try {
    return JSON.parse(body);
  } catch {
    throw new TranslateProviderError(`${provider}: answer is not JSON: ${body.slice(0, 200)}`);
  }
}

/**
 * Phrases go out as one text, a line each, so a prompt costs one request (Baidu allows one a second);
 * an answer with a different number of lines is refused rather than misaligned.
 */
export const joinLines = (phrases: string[]) => phrases.map((p) => p.replace(/\s+/g, ' ').trim()).join('\n');

export function splitLines(text: string, expected: number, provider: string): string[] {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.length !== expected) {
    throw new TranslateProviderError(`${provider}: sent ${expected} lines, got ${lines.length} back`);
  }
  return lines;
}

/**
 * One request for all the phrases, for a provider that answers the joined text as one translated text:
 * `readText` takes that text out of the answer, or throws the provider's own error.
 */
export async function translateJoined(
  provider: string,
  phrases: string[],
  request: (text: string) => ProviderRequest,
  readText: (answer: unknown, provider: string) => string,
): Promise<string[]> {
  const answer = await send(request(joinLines(phrases)), provider);
  return splitLines(readText(answer, provider), phrases.length, provider);
}
