import type { PromptHistoryItem } from '@huafang/contracts';
import { toast } from '../../services/notices';
import { useDraw } from '../../stores/draw';
import { importHistoryEntry } from './history-import';

/** 导入: the entry's words join the current prompt groups; true when some did (nothing new is said so). */
export function useHistoryImport() {
  const setPromptGroups = useDraw((state) => state.setPromptGroups);
  return (entry: PromptHistoryItem): boolean => {
    const { curPromptGroup, curNegativePromptGroup } = useDraw.getState();
    const result = importHistoryEntry(
      { promptGroup: curPromptGroup, negativePromptGroup: curNegativePromptGroup },
      entry,
    );
    if (!result.ok) {
      toast(result.reason, result.level);
      return false;
    }
    setPromptGroups(result.groups.promptGroup, result.groups.negativePromptGroup);
    toast('导入成功', 'success');
    return true;
  };
}
