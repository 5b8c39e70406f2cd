import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  deletePromptHistory,
  fetchPromptHistory,
  type PromptHistoryQuery,
  setPromptHistoryPin,
} from '../../services/prompt-history';

export const historyKeys = {
  all: ['prompt-history'] as const,
  page: (query: PromptHistoryQuery) => ['prompt-history', query] as const,
};

/** A page of history; always re-read when the drawer opens, since every generation adds an entry. */
export function usePromptHistory(query: PromptHistoryQuery, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.page(query),
    queryFn: () => fetchPromptHistory(query),
    placeholderData: keepPreviousData,
    staleTime: 0,
    enabled,
  });
}

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
