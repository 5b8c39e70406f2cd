import { useQuery } from '@tanstack/react-query';
import { taskQueries } from '../../services/task';
import { MINE_CATEGORY_ID } from './use-current-category';

/** Whether the task is one of the user's own copies (我的任务), which its owner may rename, edit and delete. */
export function useOwnTask(taskId: string): boolean {
  const mine = useQuery(taskQueries.tree('/mine'));
  const node = mine.data?.find((item) => item.id === MINE_CATEGORY_ID);
  return Boolean(node?.children?.some((task) => task.id === taskId));
}
