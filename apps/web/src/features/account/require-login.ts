import { useEffect, useRef } from 'react';
import { create } from 'zustand';
import { useSession } from '../../stores/session';
import {
  handOverToPage,
  type PageActionKind,
  type PendingAction,
  type PendingRecord,
  savePendingAction,
  tabStorage,
  takeReadyPageAction,
} from './pending-action';

const storage = tabStorage();

export const RESUME_NOTICE = '请先登录，登录或注册后会自动继续刚才的操作';

/** Bumped when login hands an action to its page, so a page already on screen runs it too. */
const useHandOvers = create(() => ({ count: 0 }));

/** After login: the page at `record.from` performs the action (see useResumedAction). */
export function handOver(record: PendingRecord): void {
  handOverToPage(storage, record);
  useHandOvers.setState((state) => ({ count: state.count + 1 }));
}

/** Where the guest is now: login returns here for actions their page performs. */
function currentAddress(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * Every action that needs a login calls this first. Logged in: true, go on. A guest: the action is remembered,
 * the login dialog opens, and false is returned (the caller steps aside, e.g. closes its own dialog); after login
 * or sign-up the action is performed and the user lands where it leads (use-account-flow.ts).
 */
export function requireLogin(action: PendingAction): boolean {
  const session = useSession.getState();
  if (session.token) return true;
  savePendingAction(storage, action, currentAddress());
  // Said in the dialog, not as a toast: a toast would hold the one-toast slot (spec §8) for 3 s and swallow the
  // 登录成功 / 注册成功 of a quick login.
  session.openDialog('login');
  session.setLoginNotice(RESUME_NOTICE);
  return false;
}

/** Remembers a page that needs login, opened by a guest by address; login goes back there. */
export function rememberVisit(path: string): void {
  savePendingAction(storage, { kind: 'visit', path }, path);
}

/**
 * For actions their own page performs (发布, 收藏): when login returns to the page, `run` gets the action once.
 * Call it in the component that owns the button, e.g. `useResumedAction('favorite', ({ workId }) => favorite(workId))`.
 */
export function useResumedAction<K extends PageActionKind>(
  kind: K,
  run: (action: Extract<PendingAction, { kind: K }>) => void,
): void {
  const loggedIn = useSession((state) => Boolean(state.token));
  const latest = useRef(run);
  latest.current = run;
  useEffect(() => {
    if (!loggedIn) return;
    const runReady = () => {
      const action = takeReadyPageAction(storage, kind);
      if (action) latest.current(action);
    };
    runReady();
    // A page already on screen when login finished hears of the hand-over here.
    return useHandOvers.subscribe(runReady);
  }, [loggedIn, kind]);
}

export { storage as pendingActionStorage };
