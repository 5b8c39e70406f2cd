import { DEFAULT_NOTICE_SECONDS } from '@huafang/contracts';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
// The ES build of the locale: `antd/locale/zh_CN` is the CommonJS one and drags its interop helpers along.
import zhCN from 'antd/es/locale/zh_CN';
import { type ReactNode, useEffect } from 'react';
import { type DataRouter, RouterProvider } from 'react-router';
import { NoticeBridge } from './components/NoticeBridge';
import { cspNonce } from './csp';
import { queryClient } from './query-client';
import { bindNavigator, LOGIN_LANDING, LOGIN_PATH } from './services/navigation';
import { replayEarlyTap } from './ssr/early-taps';
import { theme } from './theme';

// A session that ends goes straight to the landing that opens the login dialog (not through the /login redirect):
// two navigations at once (the request layer's and RequireLogin's) through that redirect were seen to leave a blank
// /login. Until the router has loaded the first page's lazy routes, or while it is loading another page, it cannot
// take a navigation reliably, so the address is then loaded as a whole page instead.
export function bindRouter(router: DataRouter) {
  bindNavigator((to) => {
    const target = to === LOGIN_PATH ? LOGIN_LANDING : to;
    if (router.state.initialized && router.state.navigation.state === 'idle') void router.navigate(target);
    else window.location.assign(target);
  });
}

const csp = { nonce: cspNonce };
// antd's static message/notification (used until <NoticeBridge> mounts) render outside the tree below.
ConfigProvider.config({ holderRender: (children) => <ConfigProvider csp={csp}>{children}</ConfigProvider> });

export function App({ router }: { router: DataRouter }) {
  useEffect(replayEarlyTap, []);
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

/** Everything around the router, the same in the browser and in the server's rendering of public pages (ssr/). */
export function AppProviders({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <ConfigProvider locale={zhCN} theme={theme} csp={csp} button={{ autoInsertSpace: false }}>
      <AntdApp
        message={{ maxCount: 1 }}
        notification={{ placement: 'topRight', maxCount: 1, duration: DEFAULT_NOTICE_SECONDS }}
      >
        <NoticeBridge />
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
