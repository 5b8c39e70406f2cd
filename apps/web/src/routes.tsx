import type { AgreementType } from '@huafang/contracts';
import type { ComponentType, ReactNode } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject } from 'react-router';
import { ChunkErrorView } from './components/ChunkErrorView';
import { PageLoading } from './components/PageLoading';
import { RequireLogin } from './components/RequireLogin';
import { RootLayout, type RouteHandle } from './components/RootLayout';
import { RouteErrorView } from './components/RouteErrorView';
import { ADMIN_SECTIONS } from './features/admin/admin-sections';
import type { SideMenuKind } from './layouts/SideMenu';
import { isChunkLoadError, loadChunk } from './lazy-chunk';
import { LOGIN_LANDING } from './services/navigation';

type PageModule = { default: ComponentType };
type PageRoute = Pick<RouteObject, 'lazy' | 'errorElement' | 'handle'>;

/**
 * Loads a page chunk for a route. A failure resolves to the chunk error view instead of rejecting: the router
 * renders nothing for a route whose `lazy` rejected, while this keeps the layout and offers 重试 in its place.
 */
async function lazyElement<T>(chunk: string, loader: () => Promise<T>, render: (module: T) => ReactNode) {
  try {
    return { element: render(await loadChunk(chunk, loader)) };
  } catch (error) {
    if (isChunkLoadError(error)) return { element: <ChunkErrorView error={error} /> };
    throw error;
  }
}

/** A lazily loaded page; a failed chunk shows "Loading chunk <name> failed" with 重试 in place of the page. */
function page(chunk: string, loader: () => Promise<PageModule>, title?: string): PageRoute {
  return {
    lazy: () => lazyElement(chunk, loader, ({ default: Page }) => <Page />),
    errorElement: <RouteErrorView />,
    handle: { title } satisfies RouteHandle,
  };
}

/**
 * The header-and-side-menu frame, loaded with the first page that uses it: the home page has its own header, so
 * the side menus (task categories, the admin sections and their icons) stay out of its first load.
 */
function mainLayout(side?: SideMenuKind): PageRoute {
  return {
    lazy: () =>
      lazyElement(
        'main-layout',
        () => import('./layouts/MainLayout'),
        ({ MainLayout }) => <MainLayout side={side} />,
      ),
  };
}

function agreementRoute(path: string, type: AgreementType): RouteObject {
  return {
    path,
    errorElement: <RouteErrorView />,
    lazy: () =>
      lazyElement(
        'agreement',
        () => import('./pages/agreement/AgreementPage'),
        ({ default: AgreementPage }) => <AgreementPage type={type} />,
      ),
  };
}

const READY_ADMIN_PAGES: Record<string, () => Promise<PageModule>> = {
  '': () => import('./pages/admin/TaskConfigPage'),
  inviteCodes: () => import('./pages/admin/InviteCodesPage'),
  help: () => import('./pages/admin/HelpRequestsPage'),
  agreement: () => import('./pages/admin/AgreementConfigPage'),
  compliance: () => import('./pages/admin/CompliancePage'),
  'sensitive-words': () => import('./pages/admin/SensitiveWordsPage'),
  'audit-log': () => import('./pages/admin/AuditLogPage'),
  dashboard: () => import('./pages/admin/DashboardPage'),
  users: () => import('./pages/admin/UsersPage'),
  backends: () => import('./pages/admin/BackendsPage'),
  combos: () => import('./pages/admin/CombosPage'),
  review: () => import('./pages/admin/WorkReviewPage'),
  orders: () => import('./pages/admin/OrdersPage'),
};
const adminPlaceholder = () => import('./pages/admin/AdminPlaceholderPage');

const adminChildren: RouteObject[] = ADMIN_SECTIONS.map((section) => {
  const route = page(
    `admin-${section.path || 'task-config'}`,
    READY_ADMIN_PAGES[section.path] ?? adminPlaceholder,
    section.label,
  );
  return section.path ? { path: section.path, ...route } : { index: true, ...route };
});

/** The route table of spec §2, in one place. */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    errorElement: <RouteErrorView />,
    hydrateFallbackElement: <PageLoading />,
    children: [
      { path: '/', ...page('home', () => import('./pages/home/HomePage'), '首页') },
      { path: '/login', element: <Navigate to={LOGIN_LANDING} replace /> },
      agreementRoute('/questionnaire', 'questionnaire'),
      agreementRoute('/privacyAgreement', 'privacy'),
      agreementRoute('/servicePolicy', 'service'),
      {
        ...mainLayout(),
        children: [
          { path: '/omnibus', ...page('omnibus', () => import('./pages/omnibus/OmnibusPage'), '灵感广场') },
          // A shared link: readable without login, like 灵感广场.
          {
            path: '/work/:id',
            ...page('shared-work', () => import('./pages/work/SharedWorkPage')),
            handle: { ownTitle: true } satisfies RouteHandle,
          },
        ],
      },
      {
        element: <RequireLogin />,
        children: [
          {
            path: '/tasks',
            ...mainLayout('tasks'),
            children: [
              { index: true, ...page('tasks', () => import('./pages/tasks/TasksPage'), '任务') },
              { path: ':id', ...page('task-detail', () => import('./pages/tasks/TaskDetailPage'), '任务详情') },
            ],
          },
          {
            // The draw aside (form controls, uploads, sliders) is only needed under /draw.
            lazy: () =>
              lazyElement(
                'draw-layout',
                () => import('./layouts/DrawLayout'),
                ({ DrawLayout }) => <DrawLayout />,
              ),
            children: [{ path: '/draw', ...page('draw', () => import('./pages/draw/DrawPage'), '创作') }],
          },
          {
            ...mainLayout(),
            children: [
              {
                path: '/myGallery',
                ...page('my-gallery', () => import('./pages/my-gallery/MyGalleryPage'), '我的作品'),
              },
              { path: '/chuangyi', ...page('chuangyi', () => import('./pages/chuangyi/ChuangyiPage')) },
              // 开放接口 (用户菜单): one page, a tab per address.
              {
                path: '/account/api-keys',
                ...page('open-api', () => import('./pages/account/OpenApiPage'), 'API 密钥'),
              },
              {
                path: '/account/webhooks',
                ...page('open-api', () => import('./pages/account/OpenApiPage'), 'Webhook'),
              },
              {
                path: '/account/credits',
                ...page('credits', () => import('./pages/account/CreditsPage'), '算力明细'),
              },
              {
                path: '/account/orders',
                ...page('orders', () => import('./pages/account/OrdersPage'), '我的订单'),
              },
              {
                path: '/account/orders/:id/result',
                ...page('pay-result', () => import('./pages/account/PayResultPage'), '支付结果'),
              },
              // Inside WeChat, back from the official account's authorisation (WECHAT_RETURN_PATH).
              {
                path: '/account/pay/wechat',
                ...page('wechat-pay', () => import('./pages/account/WechatPayPage'), '微信支付'),
              },
              // The server's default return address (createOrderBodySchema.returnPath), for orders made without one.
              { path: '/pay/result', ...page('pay-result', () => import('./pages/account/PayResultPage'), '支付结果') },
            ],
          },
          {
            ...mainLayout('admin'),
            children: [
              {
                lazy: () =>
                  lazyElement(
                    'require-access',
                    () => import('./components/RequireAccess'),
                    ({ RequireAccess }) => <RequireAccess access="canReadDashboard" />,
                  ),
                children: [
                  { path: '/admin', children: adminChildren },
                  { path: '/model', ...page('model', () => import('./pages/model/ModelPage'), '模型管理') },
                ],
              },
            ],
          },
        ],
      },
      { path: '*', ...page('not-found', () => import('./pages/not-found/NotFoundPage'), '页面不存在') },
    ],
  },
];

/** The browser's router, made once the first page's lazy routes are in place (main.tsx). */
export function createRouter() {
  return createBrowserRouter(routes, { basename: '/' });
}

/**
 * Loads the lazy routes that match the address before the router is made: the router then starts initialized and
 * renders the page at once, which hydrating the server's HTML of it needs (a fallback in its place would not match).
 */
export async function loadMatchedRoutes(pathname: string): Promise<void> {
  const matches = matchRoutes(routes, pathname) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, loaded, { lazy: undefined });
    }),
  );
}
