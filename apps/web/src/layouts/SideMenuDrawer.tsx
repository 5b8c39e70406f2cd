import { MenuUnfoldOutlined } from '@ant-design/icons';
import { Button, Drawer } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { SideMenu, type SideMenuKind } from './SideMenu';

const LABELS: Record<SideMenuKind, string> = { tasks: '任务分类', admin: '后台菜单' };

/** On narrow screens the side menu waits in a drawer behind a button above the page. */
export function SideMenuDrawer({ kind }: { kind: SideMenuKind }) {
  const [open, setOpen] = useState(false);
  // Closed by 关闭 or Esc, focus goes back to the menu button; closed by choosing an entry, the new page keeps it,
  // so a field the user already typed into is not robbed when the closing animation ends.
  const [returnFocus, setReturnFocus] = useState(true);
  const location = useLocation();
  // Choosing an entry navigates: the drawer closes with it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: location is the trigger, not an input.
  useEffect(() => {
    setReturnFocus(false);
    setOpen(false);
  }, [location]);

  return (
    <div className="hf-side-bar">
      <Button
        icon={<MenuUnfoldOutlined />}
        onClick={() => {
          setReturnFocus(true);
          setOpen(true);
        }}
      >
        {LABELS[kind]}
      </Button>
      <Drawer
        title={LABELS[kind]}
        placement="left"
        size={260}
        open={open}
        focusable={{ focusTriggerAfterClose: returnFocus }}
        onClose={() => setOpen(false)}
      >
        <SideMenu kind={kind} />
      </Drawer>
    </div>
  );
}
