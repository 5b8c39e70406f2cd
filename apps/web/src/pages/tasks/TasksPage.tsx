import { Empty, Typography } from 'antd';
import { LoadFailed } from '../../common/LoadFailed';
import { CardGridSkeleton } from '../../features/tasks/CardGridSkeleton';
import { TaskGrid } from '../../features/tasks/TaskGrid';
import { tasksOf } from '../../features/tasks/task-tree';
import { useCurrentCategory } from '../../features/tasks/use-current-category';

export default function TasksPage() {
  const { tree, category } = useCurrentCategory();
  const tasks = tasksOf(category);

  return (
    <div className="hf-page">
      <Typography.Title level={3} className="hf-page-title">
        {category?.name ?? '全部任务'}
      </Typography.Title>
      {category?.description && (
        <Typography.Paragraph type="secondary" className="hf-page-sub">
          {category.description}
        </Typography.Paragraph>
      )}
      {tree.isPending ? (
        <CardGridSkeleton />
      ) : tree.isError ? (
        <LoadFailed title="任务加载失败" onRetry={() => tree.refetch()} />
      ) : tasks.length === 0 ? (
        <div className="hf-panel hf-empty-panel">
          <Empty description={category ? '这个分类下还没有任务' : '还没有发布的任务，敬请期待'} />
        </div>
      ) : (
        <TaskGrid tasks={tasks} />
      )}
    </div>
  );
}
