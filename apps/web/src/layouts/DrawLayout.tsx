import { Layout } from 'antd';
import { DrawAside } from '../features/draw/DrawAside';
import { AppShell } from './AppShell';

export const DRAW_ASIDE_WIDTH = 340;

/** Header + the left aside of the draw area (spec §2 second layout). */
export function DrawLayout() {
  return (
    <AppShell
      sider={
        <Layout.Sider width={DRAW_ASIDE_WIDTH} theme="light" className="hf-draw-aside">
          <DrawAside />
        </Layout.Sider>
      }
    />
  );
}
