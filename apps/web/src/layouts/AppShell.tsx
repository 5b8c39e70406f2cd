import { Layout } from 'antd';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router';
import { AppHeader } from './AppHeader';

interface AppShellProps {
  /** A `Layout.Sider` beside the page (wide screens). */
  sider?: ReactNode;
  /** Drawn above the page inside the content (narrow screens, where side panels stack). */
  top?: ReactNode;
}

/** The header above an optional sider and the routed page. */
export function AppShell({ sider, top }: AppShellProps) {
  return (
    <Layout className="hf-app">
      <AppHeader />
      <Layout hasSider={Boolean(sider)}>
        {sider}
        <Layout.Content className="hf-content">
          {top}
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
