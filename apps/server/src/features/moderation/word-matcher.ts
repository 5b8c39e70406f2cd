import AhoCorasick from 'modern-ahocorasick';
import { normalizeText, normalizeWord, standsAlone } from './normalize-text.js';

/** The word list compiled once into one Aho–Corasick automaton over normalised text. */
export class WordMatcher {
  private readonly automaton: AhoCorasick;

  /** Words as admins typed them: they are normalised here, so a change of the normalisation needs no migration. */
  constructor(words: Iterable<string>) {
    const patterns = new Set<string>();
    for (const word of words) {
      const normalized = normalizeWord(word);
      if (normalized) patterns.add(normalized);
    }
    this.automaton = new AhoCorasick([...patterns]);
  }

  /** The first listed word (normalised) the text contains, or null. */
  find(text: string): string | null {
    const normalized = normalizeText(text);
    for (const hit of this.automaton.iterate(normalized.text)) {
      if (standsAlone(normalized, hit.start, hit.end)) return hit.pattern;
    }
    return null;
  }
}
