/**
 * The sections of the admin area (screens.md): one list drives the side menu and the child routes.
 * `ready` marks the sections this release implements; the others show 即将上线.
 */
export interface AdminSection {
  /** Child path under /admin; '' is the index (任务配置). */
  path: string;
  label: string;
  ready: boolean;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  { path: '', label: '任务配置', ready: false },
  { path: 'users', label: '用户管理', ready: false },
  { path: 'inviteCodes', label: '邀请码', ready: true },
  { path: 'backends', label: '推理后端', ready: false },
  { path: 'review', label: '作品审核', ready: false },
  { path: 'help', label: '帮助反馈', ready: true },
  { path: 'agreement', label: '协议配置', ready: true },
  { path: 'combos', label: '套餐配置', ready: false },
  { path: 'dashboard', label: '数据看板', ready: false },
];

export function adminSectionUrl(section: Pick<AdminSection, 'path'>): string {
  return section.path ? `/admin/${section.path}` : '/admin';
}
