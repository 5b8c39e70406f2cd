import { Layout } from 'antd';
import { useIsNarrow } from '../common/use-screen';
import { DrawAside } from '../features/draw/DrawAside';
import { AppShell } from './AppShell';
import '../features/draw/draw.css';

export const DRAW_ASIDE_WIDTH = 340;

/** Header + the left aside of the draw area (spec §2 second layout); narrow screens stack it into the page. */
export function DrawLayout() {
  const narrow = useIsNarrow();
  if (narrow) return <AppShell />;
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
