/** The gradients' names in the theme (hfTone…From / hfTone…To in theme.ts). */
const TONES = ['ink', 'rose', 'amber', 'sky', 'jade', 'violet'];

/** A stable gradient for a cover-less card, so the same task always looks the same. */
export function coverGradient(seed: string): string {
  let hash = 0;
  for (const char of seed) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  const tone = TONES[hash % TONES.length] ?? 'ink';
  return `linear-gradient(135deg, var(--ant-hf-tone-${tone}-from), var(--ant-hf-tone-${tone}-to))`;
}
