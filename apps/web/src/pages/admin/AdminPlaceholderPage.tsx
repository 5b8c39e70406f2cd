import { useLocation } from 'react-router';
import { ComingSoon } from '../../components/ComingSoon';
import { ADMIN_SECTIONS, adminSectionUrl } from '../../features/admin/admin-sections';

/** Admin sections of later releases (任务配置 and the rest) show 即将上线. */
export default function AdminPlaceholderPage() {
  const { pathname } = useLocation();
  const section = ADMIN_SECTIONS.find((item) => adminSectionUrl(item) === pathname.replace(/\/$/, ''));
  return <ComingSoon title={section?.label ?? '管理后台'} />;
}
