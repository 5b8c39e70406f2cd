import { Layout } from 'antd';
import { Outlet } from 'react-router';
import { DrawAside } from '../features/draw/DrawAside';
import { AppHeader } from './AppHeader';

export const DRAW_ASIDE_WIDTH = 340;

/** Header + the left aside of the draw area (spec §2 second layout). */
export function DrawLayout() {
  return (
    <Layout className="hf-app">
      <AppHeader />
      <Layout hasSider>
        <Layout.Sider width={DRAW_ASIDE_WIDTH} theme="light" className="hf-draw-aside">
          <DrawAside />
        </Layout.Sider>
        <Layout.Content className="hf-content">
          <Outlet />
        </Layout.Content>
      </Layout>
    </Layout>
  );
}
