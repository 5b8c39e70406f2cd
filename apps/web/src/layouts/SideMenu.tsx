import { TaskCategoryMenu } from '../features/tasks/TaskCategoryMenu';
import { AdminMenu } from './AdminMenu';

export type SideMenuKind = 'tasks' | 'admin';

/** Categories on /tasks, sections in the admin area (screens.md § Frame). */
export function SideMenu({ kind }: { kind: SideMenuKind }) {
  return kind === 'tasks' ? <TaskCategoryMenu /> : <AdminMenu />;
}
