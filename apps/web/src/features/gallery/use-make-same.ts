import type { PublicWorkDetail } from '@huafang/contracts';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { recallFromPublic } from './recall';
import { useRecall } from './use-recall';

/**
 * 做同款: creating needs a login (an invite is optional, docs/accounts.md), so the login dialog comes first.
 * Resolves false when it was opened instead, so the caller can step aside (close its own dialog).
 */
export function useMakeSame() {
  const { recall, recalling } = useRecall();

  async function makeSame(work: PublicWorkDetail): Promise<boolean> {
    const session = useSession.getState();
    if (!session.token) {
      toast('请先登录', 'info');
      session.openDialog('login');
      return false;
    }
    recall(recallFromPublic(work));
    return true;
  }

  return { makeSame, recalling };
}
