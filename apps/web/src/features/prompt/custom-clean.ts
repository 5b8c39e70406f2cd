import type { PromptGroupItem } from '@huafang/contracts';
import { holdsWord } from './custom-word';

/** The words 清空自定义 removes: those the user typed (custom "1"). */
export function customWords(group: PromptGroupItem[]): PromptGroupItem[] {
  return group.filter((item) => item.custom === '1');
}

/**
 * 撤销 after 清空自定义: the cleaned words come back at their old places. Changes made since stay: words removed
 * since stay removed, words added since stay (after the restored ones), and a cleaned word typed again is not doubled.
 */
export function restoreCustomWords(current: PromptGroupItem[], before: PromptGroupItem[]): PromptGroupItem[] {
  const now = new Map(current.map((item) => [item.id, item]));
  const beforeIds = new Set(before.map((item) => item.id));
  const added = current.filter((item) => !beforeIds.has(item.id));
  const restored = before.flatMap((item) => {
    const kept = now.get(item.id);
    if (kept) return [kept];
    return item.custom === '1' && !holdsWord(added, item) ? [item] : [];
  });
  return [...restored, ...added];
}
