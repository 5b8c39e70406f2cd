import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { AppHeader } from './AppHeader';

/** The header above an optional sider (a `Layout.Sider`) and the routed page. */
export function AppShell({ sider }: { sider?: ReactNode }) {
  return (
    <Layout className="hf-app">
      <AppHeader />
      <Layout hasSider={Boolean(sider)}>
        {sider}
        <Layout.Content className="hf-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
