import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deletePromptHistory, historyKeys, setPromptHistoryPin } from '../../services/prompt-history';

/** 置顶 / 取消置顶: the server orders pinned entries first, so the list is read again. */
export function useHistoryPin(onPinned: (pinned: boolean) => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, pinned }: { id: string; pinned: boolean }) => setPromptHistoryPin(id, pinned),
    onSuccess: async (_data, { pinned }) => {
      onPinned(pinned);
      await client.invalidateQueries({ queryKey: historyKeys.all });
    },
  });
}

export function useHistoryDelete(onDeleted: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => deletePromptHistory(ids),
    onSuccess: async () => {
      onDeleted();
      await client.invalidateQueries({ queryKey: historyKeys.all });
    },
  });
}
