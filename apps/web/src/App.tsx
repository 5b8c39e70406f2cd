import { DEFAULT_NOTICE_SECONDS } from '@huafang/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { RouterProvider } from 'react-router';
import { NoticeBridge } from './components/NoticeBridge';
import { queryClient } from './query-client';
import { router } from './routes';
import { bindNavigator } from './services/navigation';
import { theme } from './theme';

bindNavigator((to) => void router.navigate(to));

export function App() {
  return (
    <ConfigProvider locale={zhCN} theme={theme} button={{ autoInsertSpace: false }}>
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
