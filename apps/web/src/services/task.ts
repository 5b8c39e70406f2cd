import type {
  FeaturedTemplate,
  Page,
  PublicWorkItem,
  Task,
  TaskTemplateListItem,
  TaskTreeNode,
  TemplateDetail,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import { queryForId } from './query-for-id';
import { http } from './request';

/** '' is the published tree, '/all' the admin tree with drafts, '/mine' the user's own copied tasks. */
export type TaskTreeScope = '' | '/all' | '/mine';

export interface RelatedWorkQuery {
  templateId: string;
  current: number;
  pageSize: number;
}

export function fetchTaskTree(scope: TaskTreeScope = '') {
  return http.get<TaskTreeNode[]>(`/api/task/tree${scope}`);
}

export function fetchTemplateList(taskId: string) {
  return http.get<TaskTemplateListItem[]>('/api/task/template/list', { taskId });
}

export function fetchTemplateDetail(templateId: string) {
  return http.get<TemplateDetail>(`/api/task/template/detail/${encodeURIComponent(templateId)}`);
}

export function fetchTemplateTask(templateId: string) {
  return http.get<{ task: Task; category: Task | null }>(`/api/task/template/task/${encodeURIComponent(templateId)}`);
}

export function fetchRelatedWorks(query: RelatedWorkQuery) {
  return http.get<Page<PublicWorkItem>>('/api/task/template/related/work', { ...query });
}

export function fetchCopiable(taskId: string) {
  return http.get<{ copiable: boolean; reason: string | null }>(`/api/task/copiable/${encodeURIComponent(taskId)}`);
}

export function copyTaskToMine(taskId: string) {
  return http.post<Task>('/api/task/copy_to_mine', { taskId });
}

/** The home page's 精选模板; anyone may ask, signed in or not. */
export function fetchFeaturedTemplates() {
  return http.get<FeaturedTemplate[]>('/api/task/template/featured');
}

const RELATED_WORKS_PAGE_SIZE = 6;

/** Every task query sits under ['task'] (the admin's too), so an admin change refreshes the users' trees and lists. */
export const taskKeys = {
  all: ['task'] as const,
  tree: (scope: TaskTreeScope) => ['task', 'tree', scope] as const,
  templateList: (taskId: string) => ['task', 'templateList', taskId] as const,
  templateDetail: (templateId: string) => ['task', 'templateDetail', templateId] as const,
  templateTask: (templateId: string) => ['task', 'templateTask', templateId] as const,
  relatedWorks: (templateId: string) => ['task', 'relatedWorks', templateId] as const,
  copiable: (taskId: string) => ['task', 'copiable', taskId] as const,
  featured: ['task', 'featured'] as const,
};

export const taskQueries = {
  /** The home page's 精选模板 (public: the home page shows them before any login). */
  featured: () => queryOptions({ queryKey: taskKeys.featured, queryFn: fetchFeaturedTemplates }),
  tree: (scope: TaskTreeScope = '') =>
    queryOptions({ queryKey: taskKeys.tree(scope), queryFn: () => fetchTaskTree(scope) }),
  templateList: (taskId: string | null) => queryForId(taskId, taskKeys.templateList, fetchTemplateList),
  templateDetail: (templateId: string) =>
    queryOptions({ queryKey: taskKeys.templateDetail(templateId), queryFn: () => fetchTemplateDetail(templateId) }),
  /** The task and category a template belongs to. */
  templateTask: (templateId: string | null) => queryForId(templateId, taskKeys.templateTask, fetchTemplateTask),
  relatedWorks: (templateId: string) =>
    queryOptions({
      queryKey: taskKeys.relatedWorks(templateId),
      queryFn: () => fetchRelatedWorks({ templateId, current: 1, pageSize: RELATED_WORKS_PAGE_SIZE }),
    }),
  copiable: (taskId: string) =>
    queryOptions({ queryKey: taskKeys.copiable(taskId), queryFn: () => fetchCopiable(taskId) }),
};
