import type { PromptGroupItem } from '@huafang/contracts';

/** A word typed by the user (custom "1"): the chip shows `word`, the engine reads the English, else the word. */
export function customPromptItem(id: string, word: string, english?: string): PromptGroupItem {
  const groupName = word.trim();
  return { id, groupName, promptText: english?.trim() || groupName, custom: '1' };
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
      sameText(current.promptText, item.promptText),
  );
}
