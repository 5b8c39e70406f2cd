import { useQuery } from '@tanstack/react-query';
import { fetchModerationQueue } from '../../services/work-moderation';

/** 作品审核's queries: one invalidation of `all` refreshes the published list, the queue, its count and history. */
export const reviewKeys = {
  all: ['admin', 'works'] as const,
  published: ['admin', 'works', 'review'] as const,
  queue: ['admin', 'works', 'moderation', 'queue'] as const,
  queueCount: ['admin', 'works', 'moderation', 'count'] as const,
  history: ['admin', 'works', 'moderation', 'history'] as const,
};

/** How many works wait in 待审核 (the tab's badge). */
export function useModerationQueueCount() {
  return useQuery({
    queryKey: reviewKeys.queueCount,
    queryFn: async () => (await fetchModerationQueue({ current: 1, pageSize: 1, kind: 'all' })).total,
  });
}
