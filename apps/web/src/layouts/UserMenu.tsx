import {
  AccountBookOutlined,
  ApiOutlined,
  CustomerServiceOutlined,
  DownloadOutlined,
  EditOutlined,
  IdcardOutlined,
  LockOutlined,
  LogoutOutlined,
  MobileOutlined,
  PictureOutlined,
  ProfileOutlined,
  ShoppingOutlined,
  UserOutlined,
} from '@ant-design/icons';
import type { CurrentUser } from '@huafang/contracts';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useAccountFlow } from '../features/account/use-account-flow';
import { PluginDownloadDialog } from '../features/plugin/PluginDownloadDialog';
import { openComboStore } from '../features/store/combo-store-state';
import { type DialogName, useSession } from '../stores/session';

function menuItems(user: CurrentUser | null): MenuProps['items'] {
  return [
    { key: 'profile', icon: <IdcardOutlined />, label: '个人信息' },
    { key: 'editNickname', icon: <EditOutlined />, label: '修改昵称' },
    { key: 'avatar', icon: <PictureOutlined />, label: '修改头像' },
    { key: 'password', icon: <LockOutlined />, label: user?.hasPassword ? '修改密码' : '设置密码' },
    user?.mobile
      ? { key: 'unbindMobile', icon: <MobileOutlined />, label: '解绑手机' }
      : { key: 'bindMobile', icon: <MobileOutlined />, label: '绑定手机' },
    { type: 'divider' },
    { key: 'store', icon: <ShoppingOutlined />, label: '套餐商店' },
    { key: 'credits', icon: <AccountBookOutlined />, label: '算力明细' },
    { key: 'orders', icon: <ProfileOutlined />, label: '我的订单' },
    { key: 'plugin', icon: <DownloadOutlined />, label: '插件下载' },
    { key: 'openApi', icon: <ApiOutlined />, label: '开放接口' },
    { key: 'help', icon: <CustomerServiceOutlined />, label: '帮助与反馈' },
    { type: 'divider' },
    { key: 'logout', icon: <LogoutOutlined />, label: '退出登录', danger: true },
  ];
}

const DIALOG_KEYS: ReadonlySet<string> = new Set<DialogName>([
  'profile',
  'editNickname',
  'avatar',
  'password',
  'bindMobile',
  'unbindMobile',
  'help',
]);

/** The avatar, nickname and the account menu of the header. */
export function UserMenu() {
  const user = useSession((state) => state.userData);
  const open = useSession((state) => state.dialogs.userMenu);
  const openDialog = useSession((state) => state.openDialog);
  const closeDialog = useSession((state) => state.closeDialog);
  const flow = useAccountFlow();
  const navigate = useNavigate();
  const [pluginOpen, setPluginOpen] = useState(false);

  const onClick: MenuProps['onClick'] = ({ key }) => {
    closeDialog('userMenu');
    if (key === 'logout') void flow.logout();
    else if (key === 'store') openComboStore();
    else if (key === 'credits') void navigate('/account/credits');
    else if (key === 'orders') void navigate('/account/orders');
    else if (key === 'plugin') setPluginOpen(true);
    else if (key === 'openApi') void navigate('/account/api-keys');
    else if (DIALOG_KEYS.has(key)) openDialog(key as DialogName);
  };

  return (
    <>
      <Dropdown
        open={open}
        onOpenChange={(next) => (next ? openDialog('userMenu') : closeDialog('userMenu'))}
        trigger={['click']}
        placement="bottomRight"
        menu={{ items: menuItems(user), onClick }}
      >
        <button type="button" className="hf-user-trigger" aria-label="用户菜单">
          <Avatar size={32} src={user?.avatar ?? undefined} icon={<UserOutlined />} />
          <span className="hf-user-name">{user?.nickname ?? '未设置昵称'}</span>
        </button>
      </Dropdown>
      <PluginDownloadDialog open={pluginOpen} onClose={() => setPluginOpen(false)} />
    </>
  );
}
