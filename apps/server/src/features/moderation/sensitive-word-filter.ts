import { BizCode } from '@huafang/contracts';
import { z } from 'zod';
import { type Broadcast, topic } from '../../platform/broadcast/broadcast.js';
import { BizError } from '../../platform/errors.js';
import type { Repositories } from '../../repositories.js';
import type { SensitiveWordRepository } from './sensitive-word.repository.js';
import { WordMatcher } from './word-matcher.js';

/** The user texts the service checks; each refusal names its field, never the word or the list. */
export const MODERATED_FIELD_LABELS = {
  prompt: '提示词',
  negativePrompt: '反向提示词',
  customWord: '自定义提示词',
  // 自由创作 has no template: every word is typed in these two boxes.
  freePrompt: '画面描述',
  freeNegativePrompt: '不想出现的内容',
  nickname: '昵称',
  templateName: '模板名称',
  taskName: '任务名称',
  helpContent: '问题描述',
  helpContact: '联系方式',
  translateInput: '翻译内容',
  translateOutput: '翻译结果',
} as const;
export type ModeratedField = keyof typeof MODERATED_FIELD_LABELS;

export const refusalOf = (field: ModeratedField) => `${MODERATED_FIELD_LABELS[field]}包含不当内容，请修改后再试`;

/** A refusal of the word list (body code -1 like any `fail`), carrying the field, so callers can record it. */
export class ContentRefusal extends BizError {
  constructor(readonly field: ModeratedField) {
    super(BizCode.FAIL, refusalOf(field));
  }
}

/**
 * How long the matcher is trusted without asking the database. Changes reach every API process at once through the
 * broadcast; this bounds only what a lost notice could leave, and then costs one read of the list's revision.
 */
const TRUST_MS = 60_000;

const sensitiveWordsChanged = topic('sensitive-words.changed', z.strictObject({}));

/**
 * Checks user text against the word list before the service acts on it or shows it. The list is compiled once and
 * kept; an admin's change is announced on the bus, and a process that may have missed it (the bus is down, or a
 * worker, which hears none: `trustNotices` false) compares the list's revision before each check, recompiling only
 * when it moved.
 */
export class SensitiveWordFilter {
  private readonly words: SensitiveWordRepository;
  private compiled: { matcher: WordMatcher; revision: string | null } | null = null;
  /** When the compiled list was last known to be current. */
  private checkedAt = Number.NEGATIVE_INFINITY;
  private loading: Promise<WordMatcher> | null = null;
  /** Counts change notices, so a read that a notice overtook is not trusted. */
  private notices = 0;

  constructor(
    repos: Repositories,
    private readonly bus: Broadcast,
    private readonly trustNotices: boolean,
  ) {
    this.words = repos.sensitiveWords;
    bus.subscribe(sensitiveWordsChanged, () => this.distrust());
    bus.onGap(() => this.distrust());
  }

  /** After a change of the list: this process and every other API process check it before their next use. */
  changed(): Promise<void> {
    return this.bus.publish(sensitiveWordsChanged, {});
  }

  /** The first listed word (normalised) the text contains, or null. */
  async check(text: string): Promise<string | null> {
    return (await this.matcher()).find(text);
  }

  /** Refuses with body code -1 and the field's message when any of the texts contains a listed word. */
  async assertClean(field: ModeratedField, ...texts: (string | null | undefined)[]): Promise<void> {
    const present = texts.filter((text): text is string => Boolean(text));
    if (present.length === 0) return;
    const matcher = await this.matcher();
    if (present.some((text) => matcher.find(text) !== null)) throw new ContentRefusal(field);
  }

  private matcher(): Promise<WordMatcher> {
    const compiled = this.compiled;
    if (compiled && this.trustNotices && this.bus.live && Date.now() - this.checkedAt < TRUST_MS) {
      return Promise.resolve(compiled.matcher);
    }
    // One read for all the checks waiting on it.
    if (!this.loading) {
      const loading = this.refresh().finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  private async refresh(): Promise<WordMatcher> {
    const notices = this.notices;
    // Revision first: words read after it are at least that new, so a change in between only costs a recompile.
    const revision = await this.words.revision();
    let compiled = this.compiled;
    if (!compiled || compiled.revision !== revision) {
      const rows = await this.words.all();
      compiled = { matcher: new WordMatcher(rows.map((row) => row.word)), revision };
      this.compiled = compiled;
    }
    // A notice heard meanwhile may be about a change this read missed: ask again on the next check.
    this.checkedAt = notices === this.notices ? Date.now() : Number.NEGATIVE_INFINITY;
    return compiled.matcher;
  }

  private distrust(): void {
    this.notices += 1;
    this.loading = null;
    this.checkedAt = Number.NEGATIVE_INFINITY;
  }
}
