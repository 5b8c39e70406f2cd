import type {
  Page,
  Task,
  TaskTreeNode,
  TemplateCoverWork,
  TemplateFeaturedBody,
  TemplateSaveBody,
  taskBodySchema,
  taskCopyBodySchema,
  taskMoveBodySchema,
  taskUpdateBodySchema,
  templateCopyBodySchema,
  templateMoveBodySchema,
  templateSaveResultSchema,
  UploadResult,
} from '@huafang/contracts';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { http, requestEnvelope } from './request';
import { fetchTemplateDetail, taskKeys } from './task';

export type TaskCreateBody = z.input<typeof taskBodySchema>;
export type TaskUpdateBody = z.input<typeof taskUpdateBodySchema>;
export type TaskMoveBody = z.input<typeof taskMoveBodySchema>;
export type TemplateMoveBody = z.input<typeof templateMoveBodySchema>;
export type TemplateSaveResult = z.infer<typeof templateSaveResultSchema>;
/** 'draft' keeps the template out of users' sight; 'publish' validates every step first. */
export type TemplateSaveMode = 'draft' | 'publish';

const id = (value: string) => encodeURIComponent(value);

/** Categories → tasks → templates, drafts and unpublished nodes included (admins only). */
export function fetchAdminTaskTree() {
  return http.get<TaskTreeNode[]>('/api/task/tree/all');
}

export function createTask(body: TaskCreateBody) {
  return http.post<Task>('/api/task', body);
}

export function updateTask(taskId: string, body: TaskUpdateBody) {
  return http.put<Task>(`/api/task/${id(taskId)}`, body);
}

export function deleteTask(taskId: string) {
  return http.delete<null>(`/api/task/${id(taskId)}`);
}

export function copyTask(body: z.input<typeof taskCopyBodySchema>) {
  return http.post<Task>('/api/task/copy', body);
}

export function moveTask(body: TaskMoveBody) {
  return http.post<Task>('/api/task/move', body);
}

export function saveTemplate(mode: TemplateSaveMode, body: TemplateSaveBody) {
  return http.post<TemplateSaveResult>(`/api/task/template/save/${mode}`, body);
}

/** A new name without a new version: a pending draft stays a draft. */
export function renameTemplate(templateId: string, name: string) {
  return http.post<null>('/api/task/template/rename', { templateId, name });
}

export function deleteTemplate(templateId: string) {
  return http.delete<null>(`/api/task/template/${id(templateId)}`);
}

export function deleteTemplateStep(stepId: string) {
  return http.delete<null>(`/api/task/template/step/${id(stepId)}`);
}

export function copyTemplate(body: z.input<typeof templateCopyBodySchema>) {
  return http.post<{ templateId: string }>('/api/task/template/copy', body);
}

export function moveTemplate(body: TemplateMoveBody) {
  return http.post<null>('/api/task/template/move', body);
}

/** 设为精选: takes effect at once, apart from the draft and its versions. */
export async function setTemplateFeatured(body: TemplateFeaturedBody): Promise<string> {
  return (await requestEnvelope<null>('/api/task/template/featured', { method: 'POST', body })).msg;
}

/** Works made with the template that may become its cover: its public works and the admin's own. */
export function fetchCoverWorks(query: { templateId: string; current: number; pageSize: number }) {
  return http.get<Page<TemplateCoverWork>>('/api/task/template/cover/works', { ...query });
}

/** Copies the chosen work into a cover file; resolves it and the server's message. */
export function coverFromWork(templateId: string, workId: string) {
  return requestEnvelope<UploadResult>('/api/task/template/cover/from-work', {
    method: 'POST',
    body: { templateId, workId },
  });
}

/** Under taskKeys.all: refreshing every task query after an admin change refreshes these too. */
export const taskAdminKeys = {
  tree: [...taskKeys.all, 'admin', 'tree'] as const,
  template: (templateId: string) => [...taskKeys.all, 'admin', 'template', templateId] as const,
  coverWorks: (templateId: string, current: number) =>
    [...taskKeys.all, 'admin', 'coverWorks', templateId, current] as const,
};

export const taskAdminQueries = {
  tree: () => queryOptions({ queryKey: taskAdminKeys.tree, queryFn: fetchAdminTaskTree }),
  template: (templateId: string) =>
    queryOptions({ queryKey: taskAdminKeys.template(templateId), queryFn: () => fetchTemplateDetail(templateId) }),
  coverWorks: (templateId: string, current: number, pageSize: number) =>
    queryOptions({
      queryKey: taskAdminKeys.coverWorks(templateId, current),
      queryFn: () => fetchCoverWorks({ templateId, current, pageSize }),
      staleTime: 0,
    }),
};
