import { Layout } from 'antd';
import { useAccess } from '../access';
import { AppShell } from './AppShell';
import { SideMenu, type SideMenuKind } from './SideMenu';

interface MainLayoutProps {
  side?: SideMenuKind;
}

/** Header + side menu (spec §2 main layout). The admin menu is only drawn for those who may use it. */
export function MainLayout({ side }: MainLayoutProps) {
  const { canReadDashboard } = useAccess();
  const showSide = side === 'tasks' || (side === 'admin' && canReadDashboard);

  const sider = showSide && side && (
    <Layout.Sider width={220} theme="light" className="hf-sider" breakpoint="lg" collapsedWidth={0}>
      <SideMenu kind={side} />
    </Layout.Sider>
  );
  return <AppShell sider={sider} />;
}
