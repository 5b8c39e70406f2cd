import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { queryClient } from '../../query-client';
import { taskQueries } from '../../services/task';
import { worksQueries } from '../../services/works';
import { useSession } from '../../stores/session';
import { recallFromPublic } from '../gallery/recall';
import { useRecall } from '../gallery/use-recall';
import { type PendingRecord, takePendingAction } from './pending-action';
import { handOver, pendingActionStorage } from './require-login';

/**
 * After login or sign-up: performs what the guest was doing (pending-action.ts) and lands exactly there. Resolves
 * false when nothing was pending, so the caller follows spec §4 (/draw or the invite step).
 */
export function useResumePending() {
  const navigate = useNavigate();
  const { recall } = useRecall();

  const perform = useCallback(
    async (record: PendingRecord): Promise<void> => {
      const { action } = record;
      switch (action.kind) {
        case 'template': {
          // The draw store comes with the template, as from the home page's card (use-apply-template.ts).
          const [detail, { useDraw }] = await Promise.all([
            queryClient.fetchQuery({ ...taskQueries.templateDetail(action.templateId), staleTime: 0 }),
            import('../../stores/draw'),
          ]);
          useDraw.getState().loadTemplateDetails(detail, action.stepKey);
          navigate('/draw');
          return;
        }
        case 'prompt':
          navigate('/chuangyi', { state: { prompt: action.prompt } });
          return;
        case 'makeSame':
          recall(recallFromPublic(await queryClient.fetchQuery(worksQueries.publicDetail(action.workId))));
          return;
        case 'visit':
          navigate(action.path);
          return;
        default:
          // 发布, 收藏: their page runs them (useResumedAction).
          handOver(record);
          navigate(record.from);
      }
    },
    [navigate, recall],
  );

  return useCallback(async (): Promise<boolean> => {
    const record = takePendingAction(pendingActionStorage);
    if (!record) return false;
    useSession.getState().closeAllDialogs();
    // A template or work that is gone was already reported by the request layer: the user stays where they were.
    await perform(record).catch(() => undefined);
    return true;
  }, [perform]);
}
