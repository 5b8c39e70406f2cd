import type { PublicWorkItem } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../services/notices';
import { applyReactions, favoriteWork, likeWork } from '../../services/works';
import { useSession } from '../../stores/session';

export type ReactionKind = 'like' | 'favorite';

/**
 * 点赞 and 收藏 of a public work. A guest is asked to log in first, the same way 做同款 and 举报 ask (toast and the
 * login dialog); resolves false then, so a dialog can step aside for the login one.
 */
export function useWorkReactions(work: Pick<PublicWorkItem, 'id' | 'liked' | 'favorited'>) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (kind: ReactionKind) =>
      kind === 'like' ? likeWork(work.id, !work.liked) : favoriteWork(work.id, !work.favorited),
    // The pressed button and its count are the answer; a toast for every heart would crowd out the ones that matter.
    onSuccess: ({ data }) => applyReactions(queryClient, data),
  });

  function toggle(kind: ReactionKind): boolean {
    const session = useSession.getState();
    if (!session.token) {
      toast('请先登录', 'info');
      session.openDialog('login');
      return false;
    }
    mutation.mutate(kind);
    return true;
  }

  return { toggle, pending: mutation.isPending ? mutation.variables : null };
}
