/**
 * The sections of the admin area (screens.md): one list drives the side menu and the child routes;
 * sections without a page in routes.tsx show 即将上线.
 */
export interface AdminSection {
  /** Child path under /admin; '' is the index (任务配置). */
  path: string;
  label: string;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  { path: '', label: '任务配置' },
  { path: 'users', label: '用户管理' },
  { path: 'inviteCodes', label: '邀请码' },
  { path: 'backends', label: '推理后端' },
  { path: 'review', label: '作品审核' },
  { path: 'help', label: '帮助反馈' },
  { path: 'agreement', label: '协议配置' },
  { path: 'compliance', label: '合规设置' },
  { path: 'sensitive-words', label: '敏感词库' },
  { path: 'audit-log', label: '审计日志' },
  { path: 'combos', label: '套餐配置' },
  { path: 'orders', label: '订单管理' },
  { path: 'dashboard', label: '数据看板' },
];

export function adminSectionUrl(section: Pick<AdminSection, 'path'>): string {
  return section.path ? `/admin/${section.path}` : '/admin';
}
