import { hasLoraTag, type LoraTag, loraTagsIn, type PromptGroupItem, withoutLoraTags } from '@huafang/contracts';
import { fail } from '../../platform/errors.js';

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
    if (!texts.some(hasLoraTag)) {
      rest.push(item);
      continue;
    }
    for (const tag of texts.flatMap(loraTagsIn)) {
      if (!Number.isFinite(tag.weight)) throw fail(`提示词中的 LoRA「${tag.name}」权重须为数字`);
      if (!tags.has(tag.name)) tags.set(tag.name, tag);
    }
    const groupName = withoutLoraTags(item.groupName);
    const promptText = withoutLoraTags(item.promptText);
    if (!groupName && !promptText) continue;
    const { english: _, ...word } = item;
    const english = item.english === undefined ? '' : withoutLoraTags(item.english);
    rest.push({ ...word, groupName: groupName || promptText, promptText, ...(english ? { english } : {}) });
  }
  return { group: rest, tags: [...tags.values()] };
}
