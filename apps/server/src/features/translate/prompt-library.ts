import { createHash } from 'node:crypto';
import type { PromptRepository } from '../prompt/prompt.repository.js';

/** The product's prompt library as a Chinese label → English text map; labels match case-insensitively. */
export class PromptLibrary {
  readonly maxLabelLength: number;

  constructor(
    private readonly words: ReadonlyMap<string, string>,
    /** Changes whenever a label or text does, so cached translations can be dropped. */
    readonly fingerprint: string,
  ) {
    let max = 0;
    for (const label of words.keys()) max = Math.max(max, label.length);
    this.maxLabelLength = max;
  }

  static of(entries: Iterable<readonly [string, string]>): PromptLibrary {
    const words = new Map<string, string>();
    const hash = createHash('sha1');
    for (const [label, text] of entries) {
      const key = label.trim().toLowerCase();
      if (!key || !text.trim() || words.has(key)) continue;
      words.set(key, text.trim());
      hash.update(`${key}\t${text}\n`);
    }
    return new PromptLibrary(words, hash.digest('hex'));
  }

  get(label: string): string | undefined {
    return this.words.get(label.toLowerCase());
  }
}

/**
 * prompt_words read at most once per `ttlMs`: admins edit the library while the server runs, and a
 * translation should not cost a query. `invalidate()` makes the next read fresh at once; while `keep()` is false
 * (edits could go unheard) nothing is kept and every read queries.
 */
export class PromptLibraryCache {
  private current: { library: PromptLibrary; loadedAt: number } | null = null;
  private loading: Promise<PromptLibrary> | null = null;
  private generation = 0;
  constructor(
    private readonly repo: PromptRepository,
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly keep: () => boolean = () => true,
  ) {}

  async get(): Promise<PromptLibrary> {
    if (this.current && this.keep() && this.now() - this.current.loadedAt < this.ttlMs) return this.current.library;
    // One query for all waiting requests.
    if (!this.loading) {
      const loading = this.load(this.generation).finally(() => {
        if (this.loading === loading) this.loading = null;
      });
      this.loading = loading;
    }
    return this.loading;
  }

  /** The next read queries again, also when a read begun before the change is still running. */
  invalidate(): void {
    this.generation += 1;
    this.current = null;
    this.loading = null;
  }

  private async load(generation: number): Promise<PromptLibrary> {
    // Positive words first: a label in both lists translates as the positive word.
    const [positive, negative] = await Promise.all([
      this.repo.words('positive', false),
      this.repo.words('negative', false),
    ]);
    const library = PromptLibrary.of([...positive, ...negative].map((w) => [w.label, w.text] as const));
    if (generation === this.generation && this.keep()) this.current = { library, loadedAt: this.now() };
    return library;
  }
}
