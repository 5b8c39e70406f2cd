import type { PolishResult } from '@huafang/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { TranslateProviderConfig } from '../../config.js';
import { type Broadcast, topic } from '../../platform/broadcast/broadcast.js';
import { fail } from '../../platform/errors.js';
import type { Repositories } from '../../repositories.js';
import type { SensitiveWordFilter } from '../moderation/sensitive-word-filter.js';
import { BaiduTranslator } from './baidu.js';
import { DictionaryTranslator } from './dictionary-translator.js';
import { LibreTranslateTranslator } from './libretranslate.js';
import { LlmTranslator } from './llm.js';
import { PromptLibraryCache } from './prompt-library.js';
import { hasHan, joinPrompt, type OutputPiece, splitPrompt } from './prompt-syntax.js';
import { TencentTranslator } from './tencent.js';
import type { Translator } from './translator.js';

/**
 * How long the prompt library is kept. An admin's edit reaches every API process at once through the broadcast;
 * this bounds only what a lost broadcast could leave.
 */
export const LIBRARY_TTL_MS = 60_000;

/** Sent after an admin edits prompt_words: every process reads the library again for its next translation. */
export const promptLibraryChanged = topic('prompt-library.changed', z.strictObject({}));

export function providerTranslator(provider: TranslateProviderConfig): Translator | null {
  switch (provider.kind) {
    case 'dictionary':
      return null;
    case 'libretranslate':
      return new LibreTranslateTranslator({ url: provider.url, apiKey: provider.apiKey });
    case 'baidu':
      return new BaiduTranslator({ appId: provider.appId, key: provider.key });
    case 'tencent':
      return new TencentTranslator(provider);
    case 'llm':
      return new LlmTranslator(provider);
  }
}

/**
 * Chinese prompt → English prompt. Syntax stays as typed; each Chinese phrase is a prompt library
 * label (whole-phrase match), or goes to the configured provider, or to the offline dictionary,
 * which is also the fallback when the provider fails.
 */
export class TranslateService {
  private readonly library: PromptLibraryCache;
  private readonly dictionary: DictionaryTranslator;
  private readonly provider: Translator | null;
  private readonly results = new LRUCache<string, string>({ max: 2000 });
  private libraryFingerprint: string | null = null;
  private readonly log: FastifyBaseLogger;
  private readonly bus: Broadcast;
  private readonly words: SensitiveWordFilter;

  constructor(deps: {
    repos: Repositories;
    provider: TranslateProviderConfig;
    log: FastifyBaseLogger;
    bus: Broadcast;
    words: SensitiveWordFilter;
  }) {
    // While the broadcast is down an edit elsewhere could go unheard: the library is then read for each request.
    this.library = new PromptLibraryCache(deps.repos.prompts, LIBRARY_TTL_MS, Date.now, () => deps.bus.live);
    this.dictionary = new DictionaryTranslator(() => this.library.get());
    this.provider = providerTranslator(deps.provider);
    this.log = deps.log;
    this.bus = deps.bus;
    this.words = deps.words;
    deps.bus.subscribe(promptLibraryChanged, () => this.library.invalidate());
    deps.bus.onGap(() => this.library.invalidate());
  }

  /** After an admin edits prompt_words: the next translation in every API process reads the library again. */
  invalidateLibrary(): Promise<void> {
    return this.bus.publish(promptLibraryChanged, {});
  }

  /** 「AI 润色」 is offered where an LLM is configured. */
  get canPolish(): boolean {
    return this.provider instanceof LlmTranslator;
  }

  /** Refused before a listed word reaches a translation provider, and when the English holds one. */
  async zh2en(input: string): Promise<string> {
    const text = input.trim();
    await this.words.assertClean('translateInput', text);
    const [english = ''] = await this.toEnglish([text]);
    await this.words.assertClean('translateOutput', english);
    return english;
  }

  /** 「AI 润色」: the LLM expands a short idea; its answer passes the word list like a translation's. */
  async polish(input: string): Promise<PolishResult> {
    const text = input.trim();
    if (!(this.provider instanceof LlmTranslator)) throw fail('AI 润色未开启，请联系管理员配置大模型');
    await this.words.assertClean('translateInput', text);
    let result: PolishResult;
    try {
      result = await this.provider.polish(text);
    } catch (err) {
      this.log.warn({ err, provider: this.provider.name }, 'polish failed');
      throw fail('AI 润色暂时不可用，请稍后再试');
    }
    await this.words.assertClean('translateOutput', result.chinese, result.english);
    return result;
  }

  /**
   * Each prompt text in English, syntax kept; the Chinese phrases of all of them go to the provider in one request.
   * The caller checks the texts against the word list.
   */
  async toEnglish(texts: string[]): Promise<string[]> {
    const library = await this.library.get();
    // Cached translations were made with the library of their time.
    if (library.fingerprint !== this.libraryFingerprint) {
      this.results.clear();
      this.libraryFingerprint = library.fingerprint;
    }
    const prompts = texts.map((t) => {
      const text = t.trim();
      const cached = this.results.get(text);
      return { text, cached, pieces: cached === undefined ? (splitPrompt(text) as OutputPiece[]) : [] };
    });
    const chinese = prompts.flatMap((p) => p.pieces.filter((piece) => piece.kind === 'text' && hasHan(piece.text)));
    // Whole phrases the library knows never go out; a phrase in several texts goes out once.
    const phrases = [
      ...new Set(chinese.map((p) => p.text.trim()).filter((phrase) => library.get(phrase) === undefined)),
    ];
    let fellBack = false;
    let english: string[] = [];
    if (phrases.length > 0) {
      if (this.provider) {
        try {
          english = await this.provider.translate(phrases);
        } catch (err) {
          this.log.warn({ err, provider: this.provider.name }, 'translation provider failed; using the dictionary');
          fellBack = true;
        }
      }
      if (!this.provider || fellBack) english = await this.dictionary.translate(phrases);
    }
    const translation = new Map(phrases.map((phrase, i) => [phrase, english[i]]));
    for (const piece of chinese) {
      const phrase = piece.text.trim();
      const translated = library.get(phrase) ?? translation.get(phrase);
      const lead = /^\s*/.exec(piece.text)?.[0] ?? '';
      const trail = /\s*$/.exec(piece.text)?.[0] ?? '';
      piece.text = `${lead}${translated ?? phrase}${trail}`;
      piece.translated = true;
    }
    return prompts.map((p) => {
      if (p.cached !== undefined) return p.cached;
      const result = joinPrompt(p.pieces);
      // A fallback answer is not kept: the provider may be back for the next request.
      if (!fellBack) this.results.set(p.text, result);
      return result;
    });
  }
}
