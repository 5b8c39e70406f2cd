import type { TaskTreeNode } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMatch, useSearchParams } from 'react-router';
import { taskQueries } from '../../services/task';
import { categoryOfTask } from './task-tree';

export const CATEGORY_PARAM = 'category';
/** The id of the 我的任务 node of GET /api/task/tree/mine. */
export const MINE_CATEGORY_ID = 'mine';

export function categoryUrl(categoryId: string): string {
  return `/tasks?${CATEGORY_PARAM}=${encodeURIComponent(categoryId)}`;
}

/**
 * The categories of /tasks: the published ones, then 我的任务 once the user has copied a task. The category on
 * screen is the one named by ?category= (the first by default) on /tasks, the task's own on /tasks/:id; the side
 * menu and the pages share this, so they always agree.
 */
export function useCurrentCategory() {
  const tree = useQuery(taskQueries.tree());
  const mine = useQuery(taskQueries.tree('/mine'));
  const [params] = useSearchParams();
  const detail = useMatch('/tasks/:id');
  const categories: TaskTreeNode[] = [
    ...(tree.data ?? []),
    ...(mine.data ?? []).filter((node) => (node.children ?? []).length > 0),
  ];
  const category = detail
    ? categoryOfTask(categories, detail.params.id)
    : (categories.find((node) => node.id === params.get(CATEGORY_PARAM)) ?? categories[0]);
  return { tree, categories, category };
}
