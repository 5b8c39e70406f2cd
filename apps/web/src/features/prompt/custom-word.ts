import type { PromptGroupItem } from '@huafang/contracts';

/**
 * A word typed by the user (custom "1"): the chip shows `word` and a model that reads Chinese gets it; one that reads
 * only English gets `english` (its translation, which the user may edit) or, without one, the server's translation.
 */
export function customPromptItem(id: string, word: string, english?: string): PromptGroupItem {
  const groupName = word.trim();
  const translated = english?.trim();
  return {
    id,
    groupName,
    promptText: groupName,
    custom: '1',
    ...(translated && translated !== groupName ? { english: translated } : {}),
  };
}

/** Typed words get their own ids; not crypto.randomUUID, which plain-http deployments do not offer. */
export function newCustomWordId(now: number = Date.now(), random: number = Math.random()): string {
  return `custom-${now.toString(36)}-${random.toString(36).slice(2, 8)}`;
}

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The group already holds this word: the same id, the same Chinese label or the same English text. */
export function holdsWord(group: PromptGroupItem[], item: PromptGroupItem): boolean {
  return group.some(
    (current) =>
      current.id === item.id ||
      sameText(current.groupName, item.groupName) ||
      sameText(current.promptText, item.promptText) ||
      sameText(current.english ?? current.promptText, item.english ?? item.promptText),
  );
}
