import type { PromptGroupItem } from '@huafang/contracts';
import { fail } from '../../platform/errors.js';

/** A `<lora:name:weight>` tag as typed in a prompt (full-width brackets and colons too); A1111's weight default is 1. */
const TAG = /[<＜]lora[:：]([^:：<>＜＞\n]+)(?:[:：]([^:：<>＜＞\n]*))?(?:[:：][^<>＜＞\n]*)?[>＞]/giu;

const HAS_TAG = /[<＜]lora[:：]/iu;

export type LoraTag = { name: string; weight: number };

/** Text without its tags, and the commas they leave behind tidied. */
const strip = (text: string) =>
  text
    .replace(TAG, '')
    .replace(/\s*[,，]\s*(?=[,，]|$)/gu, '')
    .replace(/^\s*[,，]\s*/u, '')
    .trim();

/**
 * The LoRA tags in a prompt group and the group without them: the engines get LoRAs as the job's `loras` (A1111 as
 * prompt text again, ComfyUI as LoraLoader nodes), so the words that reach translation and the work are only words.
 * A word that was only a tag goes.
 */
export function takeLoraTags(group: readonly PromptGroupItem[]): { group: PromptGroupItem[]; tags: LoraTag[] } {
  const tags = new Map<string, LoraTag>();
  const rest: PromptGroupItem[] = [];
  for (const item of group) {
    const texts = [item.groupName, item.promptText, item.english ?? ''];
    if (!texts.some((text) => HAS_TAG.test(text))) {
      rest.push(item);
      continue;
    }
    for (const text of texts) {
      for (const [, rawName, rawWeight] of text.matchAll(TAG)) {
        const name = rawName!.trim();
        const weight = rawWeight === undefined || rawWeight.trim() === '' ? 1 : Number(rawWeight);
        if (!Number.isFinite(weight)) throw fail(`提示词中的 LoRA「${name}」权重须为数字`);
        if (!tags.has(name)) tags.set(name, { name, weight });
      }
    }
    const groupName = strip(item.groupName);
    const promptText = strip(item.promptText);
    if (!groupName && !promptText) continue;
    const { english: _, ...word } = item;
    const english = item.english === undefined ? '' : strip(item.english);
    rest.push({ ...word, groupName: groupName || promptText, promptText, ...(english ? { english } : {}) });
  }
  return { group: rest, tags: [...tags.values()] };
}
