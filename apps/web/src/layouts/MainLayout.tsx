import { Layout } from 'antd';
import { useAccess } from '../access';
import { useIsNarrow } from '../common/use-screen';
import { AppShell } from './AppShell';
import { SideMenu, type SideMenuKind } from './SideMenu';
import { SideMenuDrawer } from './SideMenuDrawer';

interface MainLayoutProps {
  side?: SideMenuKind;
}

/** Header + side menu (spec §2 main layout). The admin menu is only drawn for those who may use it. */
export function MainLayout({ side }: MainLayoutProps) {
  const { canReadDashboard } = useAccess();
  const narrow = useIsNarrow();
  const showSide = side === 'tasks' || (side === 'admin' && canReadDashboard);
  if (showSide && side && narrow) return <AppShell top={<SideMenuDrawer kind={side} />} />;

  const sider = showSide && side && (
    <Layout.Sider width={220} theme="light" className="hf-sider">
      <SideMenu kind={side} />
    </Layout.Sider>
  );
  return <AppShell sider={sider} />;
}
