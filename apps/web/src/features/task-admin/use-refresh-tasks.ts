import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { taskKeys } from '../../services/task';

/** Every task query, the users' trees and lists included, since an admin change shows there too. */
export function useRefreshTasks() {
  const queryClient = useQueryClient();
  return useCallback(() => queryClient.invalidateQueries({ queryKey: taskKeys.all }), [queryClient]);
}
