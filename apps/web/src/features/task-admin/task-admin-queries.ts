import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { fetchModelMenu } from '../../services/model';
import { fetchFormOptions } from '../../services/options';
import { fetchPromptTree } from '../../services/prompt';
import { fetchTemplateDetail } from '../../services/task';
import { fetchAdminTaskTree } from '../../services/task-admin';
import type { PromptSide } from './prompt-group-ops';

/** helpUrlFlag other than "01" reads the whole tag library, not only the featured words. */
const FULL_LIBRARY_FLAG = '02';

const taskAdminKeys = {
  tree: ['task', 'admin', 'tree'] as const,
  template: (templateId: string) => ['task', 'admin', 'template', templateId] as const,
};

export function useAdminTaskTree() {
  return useQuery({ queryKey: taskAdminKeys.tree, queryFn: fetchAdminTaskTree });
}

export function useAdminTemplate(templateId: string) {
  return useQuery({ queryKey: taskAdminKeys.template(templateId), queryFn: () => fetchTemplateDetail(templateId) });
}

/** Every task query, the users' trees and lists included, since an admin change shows there too. */
export function useRefreshTasks() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: ['task'] }), [queryClient]);
}

export function usePromptLibrary(side: PromptSide, enabled: boolean) {
  return useQuery({
    queryKey: ['promptTree', side, FULL_LIBRARY_FLAG],
    queryFn: () => fetchPromptTree(side, FULL_LIBRARY_FLAG),
    enabled,
    staleTime: 5 * 60_000,
  });
}

/** All model groups, disabled models included: a template may be prepared before its model is switched on. */
export function useAllModelGroups() {
  return useQuery({ queryKey: ['modelMenu', 'all'], queryFn: () => fetchModelMenu('all') });
}

/** The options an option source answers with; shared with /draw's fields through the same key. */
export function useOptionSource(url: string | undefined) {
  return useQuery({
    queryKey: ['formOptions', url],
    queryFn: () => fetchFormOptions(url ?? ''),
    enabled: Boolean(url),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
