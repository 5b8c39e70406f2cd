import type { TaskTemplateListItem, TaskTreeNode } from '@huafang/contracts';
import { Breadcrumb, Typography } from 'antd';
import { Link } from 'react-router';
import { CopyToMineButton } from './CopyToMineButton';
import { CoverImage } from './CoverImage';
import { OwnTaskActions } from './OwnTaskActions';
import { categoryUrl } from './use-current-category';
import { useOwnTask } from './use-own-task';
import './tasks.css';

interface TaskHeaderProps {
  task: TaskTemplateListItem;
  category: TaskTreeNode | undefined;
}

export function TaskHeader({ task, category }: TaskHeaderProps) {
  const own = useOwnTask(task.taskId);
  return (
    <>
      <Breadcrumb
        className="hf-breadcrumb"
        items={[
          { title: <Link to="/tasks">全部任务</Link> },
          ...(category ? [{ title: <Link to={categoryUrl(category.id)}>{category.name}</Link> }] : []),
          { title: task.taskName },
        ]}
      />
      <div className="hf-panel hf-task-header">
        <CoverImage src={task.cover} name={task.taskName} seed={task.taskId} className="hf-task-header-cover" />
        <div className="hf-task-header-info">
          <Typography.Title level={3} className="hf-page-title">
            {task.taskName}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{task.description || '暂无描述'}</Typography.Paragraph>
          <div className="hf-task-header-meta">共 {task.visTemplateList.length} 个模板</div>
        </div>
        {own ? <OwnTaskActions task={task} /> : <CopyToMineButton taskId={task.taskId} />}
      </div>
    </>
  );
}
