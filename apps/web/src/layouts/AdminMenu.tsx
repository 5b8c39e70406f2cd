import {
  ApartmentOutlined,
  AuditOutlined,
  BarChartOutlined,
  CloudServerOutlined,
  CustomerServiceOutlined,
  DatabaseOutlined,
  FileSearchOutlined,
  FileTextOutlined,
  GiftOutlined,
  SafetyCertificateOutlined,
  ShoppingOutlined,
  StopOutlined,
  TeamOutlined,
  TransactionOutlined,
} from '@ant-design/icons';
import { Menu, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ADMIN_SECTIONS, adminSectionUrl } from '../features/admin/admin-sections';

const ADMIN_ICONS: Record<string, ReactNode> = {
  '': <ApartmentOutlined />,
  users: <TeamOutlined />,
  inviteCodes: <GiftOutlined />,
  backends: <CloudServerOutlined />,
  review: <AuditOutlined />,
  help: <CustomerServiceOutlined />,
  agreement: <FileTextOutlined />,
  compliance: <SafetyCertificateOutlined />,
  'sensitive-words': <StopOutlined />,
  'audit-log': <FileSearchOutlined />,
  combos: <ShoppingOutlined />,
  orders: <TransactionOutlined />,
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

/** The sections of the admin area and 模型管理 (screens.md § /admin). */
export function AdminMenu() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  return (
    <Menu
      mode="inline"
      className="hf-side-menu"
      selectedKeys={[pathname.replace(/\/$/, '')]}
      items={ADMIN_ITEMS}
      onClick={({ key }) => navigate(key)}
    />
  );
}
