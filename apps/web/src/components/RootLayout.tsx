import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useScreenClasses } from '../common/use-screen-classes';
import { AccountDialogs } from '../features/account/AccountDialogs';
import { useCurrentUserSync } from '../features/account/current-user';
import { ComboStoreDialog } from '../features/store/ComboStoreDialog';
import { useSession } from '../stores/session';

export interface RouteHandle {
  /** Shown in the browser tab as "标题 - 画坊"; routes without one (e.g. /chuangyi) show 画坊. */
  title?: string;
}

function useDocumentTitle(): void {
  const matches = useMatches();
  const title = [...matches].reverse().find((match) => (match.handle as RouteHandle | undefined)?.title)?.handle as
    | RouteHandle
    | undefined;
  useEffect(() => {
    document.title = title?.title ? `${title.title} - 画坊` : '画坊';
  }, [title]);
}

/** Wraps every route: keeps the session fresh, owns the account dialogs, 套餐商店 and the first-load blank screen. */
export function RootLayout() {
  useCurrentUserSync();
  useDocumentTitle();
  useScreenClasses();
  const initialLoading = useSession((state) => state.initialLoading);

  return (
    <>
      {initialLoading && <div className="hf-blank-screen" aria-busy="true" />}
      <Outlet />
      <AccountDialogs />
      <ComboStoreDialog />
    </>
  );
}
