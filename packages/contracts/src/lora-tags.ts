/**
 * `<lora:name:weight>` as AUTOMATIC1111 reads it in a prompt (`<lyco:…>` of the LyCORIS extension too), and as a
 * Chinese keyboard types it, with full-width brackets and colons. A third field (the text encoder's weight) is read
 * past. One reader for prompts typed on /draw and for prompts read back from a picture's PNG info.
 */
const LORA_TAG = /[<＜](?:lora|lyco)[:：]([^:：<>＜＞\n]+)(?:[:：]([^:：<>＜＞\n]*))?(?:[:：][^<>＜＞\n]*)?[>＞]/giu;

const HAS_LORA_TAG = /[<＜](?:lora|lyco)[:：]/iu;

/** A tag's LoRA; `weight` is A1111's default 1 when none is written and NaN when what is written is not a number. */
export type LoraTag = { name: string; weight: number };

export const hasLoraTag = (text: string): boolean => HAS_LORA_TAG.test(text);

/** Every tag in the text, in order. */
export function loraTagsIn(text: string): LoraTag[] {
  return [...text.matchAll(LORA_TAG)].map(([, name, weight]) => ({
    name: name!.trim(),
    weight: weight === undefined || weight.trim() === '' ? 1 : Number(weight),
  }));
}

/** The text without its tags, and without the empty comma-separated parts they leave behind. */
export const withoutLoraTags = (text: string): string =>
  text
    .replace(LORA_TAG, '')
    .replace(/\s*[,，]\s*(?=[,，]|$)/gu, '')
    .replace(/^\s*[,，]\s*/u, '')
    .trim();
