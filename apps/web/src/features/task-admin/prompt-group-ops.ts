import { NEGATIVE_PROMPT_TYPE, type PromptGroupItem, type PromptTreeNode } from '@huafang/contracts';

/** Which of a step's two prompt groups is edited. */
export type PromptSide = 'positive' | 'negative';

export interface PromptWordInput {
  id: string;
  /** Chinese label shown on the chip. */
  label: string;
  /** English text sent to the engine. */
  text: string;
}

/** In the admin every negative item carries type 10 (spec §3 prompt group item). */
function typed(item: PromptGroupItem, side: PromptSide): PromptGroupItem {
  return side === 'negative' ? { ...item, type: NEGATIVE_PROMPT_TYPE } : item;
}

/** A word of the template itself (custom "0"), e.g. picked from the tag library. */
export function libraryItem(word: PromptWordInput, side: PromptSide): PromptGroupItem {
  return typed({ id: word.id, groupName: word.label, promptText: word.text, custom: '0' }, side);
}

/** A word typed in by the admin (custom "1"); without English text the label is sent as it is. */
export function customItem(word: PromptWordInput, side: PromptSide): PromptGroupItem {
  const label = word.label.trim();
  return typed({ id: word.id, groupName: label, promptText: word.text.trim() || label, custom: '1' }, side);
}

const sameText = (a: PromptGroupItem, b: PromptGroupItem) => a.promptText.toLowerCase() === b.promptText.toLowerCase();

export function hasItem(group: PromptGroupItem[], item: PromptGroupItem): boolean {
  return group.some((current) => current.id === item.id || sameText(current, item));
}

/** Adds a word unless the group already holds it (same id or same English text). */
export function addItem(group: PromptGroupItem[], item: PromptGroupItem): PromptGroupItem[] {
  return hasItem(group, item) ? group : [...group, item];
}

/** Clicking a library word adds it, clicking it again takes it out. */
export function toggleItem(group: PromptGroupItem[], item: PromptGroupItem): PromptGroupItem[] {
  return hasItem(group, item)
    ? group.filter((current) => !(current.id === item.id || sameText(current, item)))
    : [...group, item];
}

export function removeItem(group: PromptGroupItem[], id: string): PromptGroupItem[] {
  return group.filter((item) => item.id !== id);
}

/** Spec §4 Prompts: clean in the admin area keeps only the template's own words (custom "0"). */
export function cleanAdminGroup(group: PromptGroupItem[]): PromptGroupItem[] {
  return group.filter((item) => item.custom === '0');
}

export function wordOf(node: PromptTreeNode): PromptWordInput {
  return { id: node.id, label: node.name, text: node.text ?? node.name };
}

/** The library filtered by a keyword on the Chinese label or the English text; categories keep matching words. */
export function filterPromptTree(nodes: PromptTreeNode[], keyword: string): PromptTreeNode[] {
  const wanted = keyword.trim().toLowerCase();
  if (!wanted) return nodes;
  return nodes.flatMap((node) => {
    if (node.kind === 'word') {
      const hit = node.name.toLowerCase().includes(wanted) || (node.text ?? '').toLowerCase().includes(wanted);
      return hit ? [node] : [];
    }
    const children = filterPromptTree(node.children ?? [], wanted);
    return children.length > 0 ? [{ ...node, children }] : [];
  });
}
