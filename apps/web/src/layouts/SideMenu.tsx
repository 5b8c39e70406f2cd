import {
  ApartmentOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  CloudServerOutlined,
  CustomerServiceOutlined,
  DatabaseOutlined,
  FileTextOutlined,
  GiftOutlined,
  ShoppingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ADMIN_SECTIONS, adminSectionUrl } from '../features/admin/admin-sections';

export type SideMenuKind = 'tasks' | 'admin';

const TASK_ITEMS: MenuProps['items'] = [{ key: '/tasks', icon: <AppstoreOutlined />, label: '全部任务' }];

const ADMIN_ICONS: Record<string, ReactNode> = {
  '': <ApartmentOutlined />,
  users: <TeamOutlined />,
  inviteCodes: <GiftOutlined />,
  backends: <CloudServerOutlined />,
  review: <AuditOutlined />,
  help: <CustomerServiceOutlined />,
  agreement: <FileTextOutlined />,
  combos: <ShoppingOutlined />,
  dashboard: <BarChartOutlined />,
};

const ADMIN_ITEMS: MenuProps['items'] = [
  {
    type: 'group',
    label: '管理后台',
    children: ADMIN_SECTIONS.map((section) => ({
      key: adminSectionUrl(section),
      icon: ADMIN_ICONS[section.path],
      label: section.label,
    })),
  },
  { type: 'divider' },
  { key: '/model', icon: <DatabaseOutlined />, label: '模型管理' },
];

/** Categories on /tasks, sections in the admin area (screens.md § Frame). */
export function SideMenu({ kind }: { kind: SideMenuKind }) {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const items = kind === 'tasks' ? TASK_ITEMS : ADMIN_ITEMS;
  const selected = kind === 'tasks' ? '/tasks' : pathname.replace(/\/$/, '');

  return (
    <Menu
      mode="inline"
      className="hf-side-menu"
      selectedKeys={[selected]}
      items={items}
      onClick={({ key }) => navigate(key)}
    />
  );
}
