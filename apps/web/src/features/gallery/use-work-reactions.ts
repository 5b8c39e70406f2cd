import type { PublicWorkItem } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { applyReactions, favoriteWork, likeWork } from '../../services/works';
import { requireLogin, useResumedAction } from '../account/require-login';

export type ReactionKind = 'like' | 'favorite';

/**
 * 点赞 and 收藏 of a public work. A guest is asked to log in first (requireLogin: the click is remembered and done
 * after login, by useResumedReactions on the page); false then, so a dialog can step aside for the login one.
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
    if (!requireLogin({ kind, workId: work.id })) return false;
    mutation.mutate(kind);
    return true;
  }

  return { toggle, pending: mutation.isPending ? mutation.variables : null };
}

/**
 * On a page that shows 点赞/收藏: a guest's click, remembered while they logged in, is done once they are back (a
 * like or favourite, never an undo: the guest could not have had one).
 */
export function useResumedReactions(): void {
  const queryClient = useQueryClient();
  const apply = ({ data }: Awaited<ReturnType<typeof likeWork>>) => applyReactions(queryClient, data);
  // A refusal (the work left 灵感广场 meanwhile) was shown by the request layer.
  const shown = () => undefined;
  useResumedAction('like', ({ workId }) => void likeWork(workId, true).then(apply, shown));
  useResumedAction('favorite', ({ workId }) => void favoriteWork(workId, true).then(apply, shown));
}
