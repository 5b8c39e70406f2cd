import type { PublicWorkDetail } from '@huafang/contracts';
import { requireLogin } from '../account/require-login';
import { recallFromPublic } from './recall';
import { useRecall } from './use-recall';

/**
 * 做同款: creating needs a login (an invite is optional, docs/accounts.md), so the login dialog comes first; after
 * login or sign-up the 做同款 resumes (require-login.ts).
 * Resolves false when it was opened instead, so the caller can step aside (close its own dialog).
 */
export function useMakeSame() {
  const { recall, recalling } = useRecall();

  async function makeSame(work: PublicWorkDetail): Promise<boolean> {
    if (!requireLogin({ kind: 'makeSame', workId: work.id })) return false;
    recall(recallFromPublic(work));
    return true;
  }

  return { makeSame, recalling };
}
