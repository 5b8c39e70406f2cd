import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef, useState } from 'react';
import { isRequestError } from '../../services/request-error';
import { taskQueries } from '../../services/task';
import { useDraw } from '../../stores/draw';
import { planTaskFetch } from './task-fetch';

/**
 * Spec §4 Tasks fetch for the task-selection dialog: the tree, then the template list of the chosen category
 * (the first by default), stored as taskData, twoTaskData and taskList. A slower answer for a category the
 * user already left is dropped.
 */
export function useTasksFetch() {
  const queryClient = useQueryClient();
  const setTaskLists = useDraw((state) => state.setTaskLists);
  const [loading, setLoading] = useState(false);
  const [categoryId, setCategoryId] = useState<string | null>(null);
  const latest = useRef(0);

  const fetchTasks = useCallback(
    async (chosenCategoryId?: string) => {
      const call = ++latest.current;
      setLoading(true);
      if (chosenCategoryId) setCategoryId(chosenCategoryId);
      try {
        const tree = await queryClient.fetchQuery(taskQueries.tree(''));
        const plan = planTaskFetch(tree, chosenCategoryId);
        const taskId = plan.taskId;
        const taskList = taskId ? await queryClient.fetchQuery(taskQueries.templateList(taskId)) : [];
        if (call !== latest.current) return;
        setCategoryId(plan.category?.id ?? null);
        setTaskLists({ taskData: tree, twoTaskData: plan.twoTaskData, taskList });
      } catch (error) {
        if (!isRequestError(error) || !error.notified) throw error;
      } finally {
        if (call === latest.current) setLoading(false);
      }
    },
    [queryClient, setTaskLists],
  );

  return { loading, categoryId, fetchTasks };
}
