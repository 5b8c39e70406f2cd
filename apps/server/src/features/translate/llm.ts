import OpenAI from 'openai';
import { TranslateProviderError, type Translator } from './translator.js';

export type LlmOptions = { baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number };

const TRANSLATE_INSTRUCTIONS = [
  'You write prompts for Stable Diffusion image models.',
  'The user sends a JSON array of Chinese prompt phrases. Translate each into a short English Stable Diffusion prompt:',
  'natural English word order, concise comma-separated tags or a short phrase, no explanations, no quotes,',
  'English words, numbers and names already in a phrase kept as they are.',
  'Answer with only a JSON array of strings, one for each phrase, in the same order and the same count.',
].join(' ');

const POLISH_INSTRUCTIONS = [
  'You help users of an image generator write prompts.',
  'The user sends a short idea in Chinese. Expand it into a fuller picture: subject, details, setting, light,',
  'mood, style and composition, keeping what the user asked for and adding nothing unsafe.',
  'Answer with only a JSON object {"chinese": "...", "english": "..."}: "chinese" is the fuller idea in Chinese',
  'as comma-separated phrases (at most 120 characters); "english" is the same as an English Stable Diffusion',
  'prompt of comma-separated tags (at most 60 words).',
].join(' ');

/** A model's answer, without the Markdown code fence some models put around JSON. */
function answerJson(content: string | null | undefined, provider: string): unknown {
  const text = (content ?? '')
    .trim()
    .replace(/^```(?:json)?\s*/i, '')
    .replace(/\s*```$/, '');
  try {
    return JSON.parse(text);
  } catch {
    throw new TranslateProviderError(`${provider}: the answer is not JSON: ${text.slice(0, 200)}`);
  }
}

/**
 * Any OpenAI-compatible chat-completions API through the official `openai` SDK: DeepSeek, Qwen through DashScope's
 * compatible mode, a local vLLM or Ollama. One request per prompt, no retries (the dictionary is the fallback), and
 * errors carry the provider's message only, never the request (its key).
 */
export class LlmTranslator implements Translator {
  readonly name = 'llm';
  private readonly client: OpenAI;

  constructor(private readonly options: LlmOptions) {
    this.client = new OpenAI({
      baseURL: options.baseUrl,
      // Local servers take any key; the SDK wants one.
      apiKey: options.apiKey ?? 'none',
      timeout: options.timeoutMs,
      maxRetries: 0,
    });
  }

  private async complete(system: string, user: string): Promise<unknown> {
    let content: string | null | undefined;
    try {
      const completion = await this.client.chat.completions.create({
        model: this.options.model,
        temperature: 0.2,
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: user },
        ],
      });
      content = completion.choices[0]?.message?.content;
    } catch (err) {
      const status = err instanceof OpenAI.APIError && err.status ? ` HTTP ${err.status}` : '';
      throw new TranslateProviderError(`${this.name}:${status} ${(err as Error).message}`);
    }
    return answerJson(content, this.name);
  }

  async translate(phrases: string[]): Promise<string[]> {
    const answer = await this.complete(TRANSLATE_INSTRUCTIONS, JSON.stringify(phrases));
    if (!Array.isArray(answer) || answer.length !== phrases.length || !answer.every((a) => typeof a === 'string')) {
      throw new TranslateProviderError(`${this.name}: sent ${phrases.length} phrases, the answer does not match`);
    }
    return answer.map((a: string) => a.replace(/\s+/g, ' ').trim());
  }

  /** 「AI 润色」: a short Chinese idea as a fuller Chinese description and its English prompt. */
  async polish(idea: string): Promise<{ chinese: string; english: string }> {
    const answer = (await this.complete(POLISH_INSTRUCTIONS, idea)) as { chinese?: unknown; english?: unknown };
    if (typeof answer?.chinese !== 'string' || typeof answer.english !== 'string' || !answer.english.trim()) {
      throw new TranslateProviderError(`${this.name}: the polish answer lacks "chinese" or "english"`);
    }
    return { chinese: answer.chinese.trim(), english: answer.english.replace(/\s+/g, ' ').trim() };
  }
}
