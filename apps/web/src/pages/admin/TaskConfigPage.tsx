import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { NodeEditor } from '../../features/task-admin/NodeEditor';
import { TaskTreePanel } from '../../features/task-admin/TaskTreePanel';
import { indexTree } from '../../features/task-admin/tree-model';
import { taskAdminQueries } from '../../services/task-admin';
import '../../features/task-admin/task-admin.css';
import { LoadFailed } from '../../common/LoadFailed';
import { PageHead } from '../../components/PageHead';

/** /admin 任务配置: the task tree on the left, the editor of the selected node on the right (?node=id). */
export default function TaskConfigPage() {
  const tree = useQuery(taskAdminQueries.tree());
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedKey = searchParams.get('node');
  const selected = selectedKey ? indexTree(tree.data ?? []).get(selectedKey)?.node : undefined;

  const select = (key: string | null) => setSearchParams(key ? { node: key } : {}, { replace: true });

  return (
    <div className="hf-ta-page">
      <PageHead title="任务配置" />
      {tree.isError ? (
        <LoadFailed title="任务树加载失败" onRetry={() => tree.refetch()} />
      ) : (
        <div className="hf-ta-panes">
          <aside className="hf-ta-tree-pane">
            <TaskTreePanel
              tree={tree.data ?? []}
              loading={tree.isPending}
              selectedKey={selectedKey}
              onSelect={select}
              onReload={() => void tree.refetch()}
            />
          </aside>
          <section className="hf-ta-editor-pane" aria-label="编辑区">
            <NodeEditor node={selected} />
          </section>
        </div>
      )}
    </div>
  );
}
