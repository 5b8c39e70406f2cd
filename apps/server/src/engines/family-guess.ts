import type { ModelFamily } from '@huafang/contracts';

/** Clues in a file name or training metadata, most specific first (an SDXL-based Pony LoRA says both). */
const CLUES: readonly [RegExp, ModelFamily][] = [
  [/pony/i, 'Pony'],
  [/illustrious|noob/i, 'Illustrious'],
  [/flux/i, 'FLUX'],
  [/kolors/i, 'Kolors'],
  [/sd[-_ ]?3|stable-diffusion-v3/i, 'SD3'],
  [/sdxl|sd[-_ ]?xl|stable-diffusion-xl|\bxl\b|_xl\b/i, 'SDXL'],
  [/sd[-_ ]?2|v2[-_.]?1|stable-diffusion-v2/i, 'SD2'],
  [/sd[-_ ]?1[-_.]?5|sd15|sd_v1|stable-diffusion-v1/i, 'SD1.5'],
];

/** The base-model family a name or metadata text suggests; 其他 when nothing does (the admin sets it). */
export function guessFamily(...texts: (string | null | undefined)[]): ModelFamily {
  const text = texts.filter(Boolean).join(' ');
  return CLUES.find(([clue]) => clue.test(text))?.[1] ?? '其他';
}
