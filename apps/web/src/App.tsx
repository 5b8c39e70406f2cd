import { DEFAULT_NOTICE_SECONDS } from '@huafang/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
// The ES build of the locale: `antd/locale/zh_CN` is the CommonJS one and drags its interop helpers along.
import zhCN from 'antd/es/locale/zh_CN';
import { RouterProvider } from 'react-router';
import { NoticeBridge } from './components/NoticeBridge';
import { cspNonce } from './csp';
import { queryClient } from './query-client';
import { router } from './routes';
import { bindNavigator } from './services/navigation';
import { theme } from './theme';

// Until the router has loaded the first page's lazy routes it cannot take a navigation reliably (a 401 during a slow
// first load was seen to leave a blank /login), so it then loads the address as a whole page instead.
bindNavigator((to) => {
  if (router.state.initialized) void router.navigate(to);
  else window.location.assign(to);
});

const csp = { nonce: cspNonce };
// antd's static message/notification (used until <NoticeBridge> mounts) render outside the tree below.
ConfigProvider.config({ holderRender: (children) => <ConfigProvider csp={csp}>{children}</ConfigProvider> });

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={theme} csp={csp} button={{ autoInsertSpace: false }}>
      <AntdApp
        message={{ maxCount: 1 }}
        notification={{ placement: 'topRight', maxCount: 1, duration: DEFAULT_NOTICE_SECONDS }}
      >
        <NoticeBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntdApp>
    </ConfigProvider>
  );
}
