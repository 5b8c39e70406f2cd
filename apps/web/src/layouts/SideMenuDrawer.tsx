import { MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { SideMenu, type SideMenuKind } from './SideMenu';

const LABELS: Record<SideMenuKind, string> = { tasks: '任务分类', admin: '后台菜单' };

/** On narrow screens the side menu waits in a drawer behind a button above the page. */
export function SideMenuDrawer({ kind }: { kind: SideMenuKind }) {
  const [open, setOpen] = useState(false);
  const location = useLocation();
  // Choosing an entry navigates: the drawer closes with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location is the trigger, not an input.
  useEffect(() => setOpen(false), [location]);

  return (
    <div className="hf-side-bar">
      <Button icon={<MenuUnfoldOutlined />} onClick={() => setOpen(true)}>
        {LABELS[kind]}
      </Button>
      <Drawer title={LABELS[kind]} placement="left" size={260} open={open} onClose={() => setOpen(false)}>
        <SideMenu kind={kind} />
      </Drawer>
    </div>
  );
}
