import type {
  FeaturedTemplate,
  Page,
  PublicWorkItem,
  Task,
  TaskTemplateListItem,
  TaskTreeNode,
  TemplateDetail,
} from '@huafang/contracts';
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
