import { type PromptGroupItem, type PromptHistoryItem, promptGroupSchema } from '@huafang/contracts';
import { holdsWord } from '../prompt/custom-word';

export interface ImportedGroups {
  promptGroup: PromptGroupItem[];
  negativePromptGroup: PromptGroupItem[];
}

/** Spec §4 Prompts: import appends the entry's words to the current ones; a word already there keeps its place. */
export function appendWords(current: PromptGroupItem[], imported: PromptGroupItem[]): PromptGroupItem[] {
  const merged = [...current];
  for (const item of imported) if (!holdsWord(merged, item)) merged.push(item);
  return merged;
}

/** Said when an entry holds only words the groups already have. */
export const NOTHING_NEW = '没有新的提示词：这条记录的词都已在当前提示词中';

/**
 * Both groups after importing `entry`, or why they do not take it: nothing new to add (level info), or the
 * group limits of the contract (level warning).
 */
export function importHistoryEntry(
  current: ImportedGroups,
  entry: Pick<PromptHistoryItem, 'promptGroup' | 'negativePromptGroup'>,
): { ok: true; groups: ImportedGroups } | { ok: false; reason: string; level: 'info' | 'warning' } {
  const groups = {
    promptGroup: appendWords(current.promptGroup, entry.promptGroup),
    negativePromptGroup: appendWords(current.negativePromptGroup, entry.negativePromptGroup),
  };
  const added =
    groups.promptGroup.length -
    current.promptGroup.length +
    (groups.negativePromptGroup.length - current.negativePromptGroup.length);
  if (added === 0) return { ok: false, reason: NOTHING_NEW, level: 'info' };
  for (const group of [groups.promptGroup, groups.negativePromptGroup]) {
    const check = promptGroupSchema.safeParse(group);
    if (!check.success)
      return { ok: false, reason: check.error.issues[0]?.message ?? '提示词过多，无法导入', level: 'warning' };
  }
  return { ok: true, groups };
}

/** How many chips of a group an entry shows before folding the rest into “+N”. */
export const HISTORY_CHIP_LIMIT = 12;

export function foldChips<T>(items: T[], limit: number = HISTORY_CHIP_LIMIT): { shown: T[]; hidden: number } {
  return { shown: items.slice(0, limit), hidden: Math.max(0, items.length - limit) };
}
