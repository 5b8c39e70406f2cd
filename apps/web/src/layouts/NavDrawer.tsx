import { Drawer, Menu, type MenuProps } from 'antd';

interface NavDrawerProps {
  open: boolean;
  onClose: () => void;
  items: MenuProps['items'];
  selectedKeys: string[];
}

/** Narrow screens: the header's links in a drawer from the left; choosing one closes it. */
export function NavDrawer({ open, onClose, items, selectedKeys }: NavDrawerProps) {
  return (
    <Drawer title="画坊" placement="left" size={260} open={open} onClose={onClose} className="hf-nav-drawer">
      <Menu mode="inline" selectedKeys={selectedKeys} items={items} onClick={onClose} />
    </Drawer>
  );
}
