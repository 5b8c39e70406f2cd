import { useEffect } from 'react';
import { Outlet, useMatches } from 'react-router';
import { useDisplayZoneSync } from '../common/display-zone';
import { useScreenClasses } from '../common/use-screen-classes';
import { useCurrentUserSync } from '../features/account/current-user';
import { useComboStoreDialog } from '../features/store/combo-store-state';
import { useSession } from '../stores/session';
import { lazyNamed, MountWhenOpened } from './MountWhenOpened';

// Dialogs stay out of the first load of every page; they come with the first time one is opened.
const AccountDialogs = lazyNamed(() => import('../features/account/AccountDialogs'), 'AccountDialogs');
const ComboStoreDialog = lazyNamed(() => import('../features/store/ComboStoreDialog'), 'ComboStoreDialog');

export interface RouteHandle {
  /** Shown in the browser tab as "标题 - 画坊"; routes without one (e.g. /chuangyi) show 画坊. */
  title?: string;
  /** The page names the tab itself from what it loads (a shared work names its author); `title` is not set here. */
  ownTitle?: boolean;
}

function useDocumentTitle(): void {
  const matches = useMatches();
  const title = [...matches].reverse().find((match) => {
    const handle = match.handle as RouteHandle | undefined;
    return handle?.title || handle?.ownTitle;
  })?.handle as RouteHandle | undefined;
  useEffect(() => {
    if (title?.ownTitle) return;
    document.title = title?.title ? `${title.title} - 画坊` : '画坊';
  }, [title]);
}

/** Wraps every route: keeps the session fresh, owns the account dialogs, 套餐商店 and the first-load blank screen. */
export function RootLayout() {
  useCurrentUserSync();
  useDocumentTitle();
  useScreenClasses();
  useDisplayZoneSync();
  const initialLoading = useSession((state) => state.initialLoading);
  const accountDialogOpened = useSession((state) => Object.values(state.dialogs).some(Boolean));
  const comboStoreOpened = useComboStoreDialog((state) => state.open);

  return (
    <>
      {initialLoading && <div className="hf-blank-screen" aria-busy="true" />}
      <Outlet />
      <MountWhenOpened opened={accountDialogOpened}>
        <AccountDialogs />
      </MountWhenOpened>
      <MountWhenOpened opened={comboStoreOpened}>
        <ComboStoreDialog />
      </MountWhenOpened>
    </>
  );
}
