import { MenuOutlined, ThunderboltOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Layout, Menu, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { useAccess } from '../access';
import { useIsNarrow } from '../common/use-screen';
import { lazyNamed, MountWhenOpened } from '../components/MountWhenOpened';
import { openComboStore } from '../features/store/combo-store-state';
import { useSignedInFrame } from '../ssr/signed-in-frame';
import { useSession } from '../stores/session';

// Only signed-in visitors see the account menu; anonymous first visits do not load it.
const UserMenu = lazyNamed(() => import('./UserMenu'), 'UserMenu');
const NavDrawer = lazyNamed(() => import('./NavDrawer'), 'NavDrawer');

/** Where the account menu will be, while its code loads (and in the server's frame, which knows no reader). */
const AVATAR_PLACEHOLDER = (
  <span className="hf-user-trigger">
    <Avatar size={32} icon={<UserOutlined />} />
  </span>
);

const NAV: { path: string; label: string }[] = [
  { path: '/', label: '首页' },
  { path: '/omnibus', label: '灵感广场' },
  { path: '/tasks', label: '任务' },
  { path: '/draw', label: '创作' },
  { path: '/chuangyi', label: '自由创作' },
  { path: '/myGallery', label: '我的作品' },
];

/** The nav entry a path belongs to: the longest matching prefix, so /tasks/1 lights up 任务. */
function activeKey(pathname: string, paths: string[]): string[] {
  const match = paths
    .filter((path) => (path === '/' ? pathname === '/' : pathname === path || pathname.startsWith(`${path}/`)))
    .sort((a, b) => b.length - a.length)[0];
  return match ? [match] : [];
}

interface AppHeaderProps {
  /** The home page lays the header over its hero. */
  transparent?: boolean;
}

export function AppHeader({ transparent = false }: AppHeaderProps) {
  const { pathname } = useLocation();
  const { canReadDashboard } = useAccess();
  // The server's frame of a signed-in page has a reader but not who.
  const frame = useSignedInFrame();
  const loggedIn = useSession((state) => Boolean(state.token)) || frame;
  const credits = useSession((state) => state.userData?.credits);
  const openDialog = useSession((state) => state.openDialog);
  const narrow = useIsNarrow();
  const [menuOpen, setMenuOpen] = useState(false);

  const nav = canReadDashboard ? [...NAV, { path: '/admin', label: '管理后台' }] : NAV;
  const items: MenuProps['items'] = nav.map(({ path, label }) => ({
    key: path,
    label: <Link to={path}>{label}</Link>,
  }));
  const selectedKeys = activeKey(
    pathname,
    nav.map((item) => item.path),
  );

  return (
    <Layout.Header className={transparent ? 'hf-header hf-header-transparent' : 'hf-header'}>
      {narrow && <Button type="text" icon={<MenuOutlined />} aria-label="菜单" onClick={() => setMenuOpen(true)} />}
      <Link to="/" className="hf-logo" aria-label="画坊首页">
        <span className="hf-logo-mark">画</span>
        <span className="hf-logo-text">画坊</span>
      </Link>
      {narrow ? (
        // The links fold into a drawer, fetched the first time it opens; credits and the avatar stay in the bar.
        <MountWhenOpened opened={menuOpen}>
          <NavDrawer open={menuOpen} onClose={() => setMenuOpen(false)} items={items} selectedKeys={selectedKeys} />
        </MountWhenOpened>
      ) : (
        <Menu mode="horizontal" className="hf-nav" selectedKeys={selectedKeys} items={items} disabledOverflow />
      )}
      <div className="hf-header-right">
        {loggedIn ? (
          <>
            <Button className="hf-credits" shape="round" icon={<ThunderboltOutlined />} onClick={openComboStore}>
              剩余 {credits ?? '—'} 点
            </Button>
            {frame ? (
              AVATAR_PLACEHOLDER
            ) : (
              <Suspense fallback={AVATAR_PLACEHOLDER}>
                <UserMenu />
              </Suspense>
            )}
          </>
        ) : (
          <Button type="primary" shape="round" onClick={() => openDialog('login')}>
            登录
          </Button>
        )}
      </div>
    </Layout.Header>
  );
}
