const TONES = ['hf-tone-ink', 'hf-tone-rose', 'hf-tone-amber', 'hf-tone-sky', 'hf-tone-jade', 'hf-tone-violet'];

/** A stable gradient for a cover-less card, so the same task always looks the same. */
export function coverTone(seed: string): string {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return TONES[hash % TONES.length] ?? 'hf-tone-ink';
}
