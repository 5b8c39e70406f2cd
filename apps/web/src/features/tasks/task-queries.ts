import { useQuery } from '@tanstack/react-query';
import {
  fetchCopiable,
  fetchFeaturedTemplates,
  fetchRelatedWorks,
  fetchTaskTree,
  fetchTemplateList,
  fetchTemplateTask,
  type TaskTreeScope,
} from '../../services/task';

const RELATED_WORKS_PAGE_SIZE = 6;

export const taskKeys = {
  tree: (scope: TaskTreeScope) => ['task', 'tree', scope] as const,
  templateList: (taskId: string) => ['task', 'templateList', taskId] as const,
  templateDetail: (templateId: string) => ['task', 'templateDetail', templateId] as const,
  templateTask: (templateId: string) => ['task', 'templateTask', templateId] as const,
  relatedWorks: (templateId: string) => ['task', 'relatedWorks', templateId] as const,
  copiable: (taskId: string) => ['task', 'copiable', taskId] as const,
  featured: ['task', 'featured'] as const,
};

/** The home page's 精选模板 (public: the home page shows them before any login). */
export function useFeaturedTemplates() {
  return useQuery({ queryKey: taskKeys.featured, queryFn: fetchFeaturedTemplates });
}

export function useTaskTree(scope: TaskTreeScope = '') {
  return useQuery({ queryKey: taskKeys.tree(scope), queryFn: () => fetchTaskTree(scope) });
}

export function useTemplateList(taskId: string | null) {
  return useQuery({
    queryKey: taskKeys.templateList(taskId ?? ''),
    queryFn: () => fetchTemplateList(taskId ?? ''),
    enabled: Boolean(taskId),
  });
}

/** The task and category a template belongs to. */
export function useTemplateTask(templateId: string | null) {
  return useQuery({
    queryKey: taskKeys.templateTask(templateId ?? ''),
    queryFn: () => fetchTemplateTask(templateId ?? ''),
    enabled: Boolean(templateId),
  });
}

export function useRelatedWorks(templateId: string) {
  return useQuery({
    queryKey: taskKeys.relatedWorks(templateId),
    queryFn: () => fetchRelatedWorks({ templateId, current: 1, pageSize: RELATED_WORKS_PAGE_SIZE }),
  });
}

export function useCopiable(taskId: string) {
  return useQuery({ queryKey: taskKeys.copiable(taskId), queryFn: () => fetchCopiable(taskId) });
}
