import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { fetchPromptList, fetchPromptTree, type PromptListQuery, type PromptVariant } from '../../services/prompt';

/** helpUrlFlag "01" reads the featured words (常用); "02" the whole library (全部). */
export const HELP_URL_FLAG = { featured: '01', all: '02' } as const;

export const promptKeys = {
  all: ['prompt'] as const,
  tree: (variant: PromptVariant, helpUrlFlag: string) => ['prompt', 'tree', variant, helpUrlFlag] as const,
  list: (variant: PromptVariant, query: PromptListQuery) => ['prompt', 'list', variant, query] as const,
};

export function usePromptTree(variant: PromptVariant, helpUrlFlag: string) {
  return useQuery({
    queryKey: promptKeys.tree(variant, helpUrlFlag),
    queryFn: () => fetchPromptTree(variant, helpUrlFlag),
  });
}

export function usePromptList(variant: PromptVariant, query: PromptListQuery, enabled = true) {
  return useQuery({
    queryKey: promptKeys.list(variant, query),
    queryFn: () => fetchPromptList(variant, query),
    placeholderData: keepPreviousData,
    enabled,
  });
}
