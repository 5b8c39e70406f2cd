import type { PublicWorkDetail } from '@huafang/contracts';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from '../account/current-user';
import { recallFromPublic } from './recall';
import { useRecall } from './use-recall';

/**
 * 做同款: creating needs a login and an accepted invite (spec §4), so those dialogs come first. Resolves false
 * when one of them was opened instead, so the caller can step aside (close its own dialog).
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
    const user = session.userData ?? (await loadCurrentUser().catch(() => null));
    if (!user) return false;
    if (!user.invite) {
      toast('填写邀请码后即可开始创作', 'info');
      session.openDialog('invite');
      return false;
    }
    recall(recallFromPublic(work));
    return true;
  }

  return { makeSame, recalling };
}
