import type { TaskTreeNode } from '@huafang/contracts';
import { Typography } from 'antd';
import { Link } from 'react-router';
import { CoverImage } from './CoverImage';
import './tasks.css';

export function TaskCard({ task }: { task: TaskTreeNode }) {
  return (
    <Link to={`/tasks/${encodeURIComponent(task.id)}`} className="hf-card hf-task-card">
      <CoverImage src={task.cover} name={task.name} seed={task.id} />
      <div className="hf-card-body">
        <div className="hf-card-title">{task.name}</div>
        <Typography.Paragraph type="secondary" ellipsis className="hf-card-desc">
          {task.description || '暂无描述'}
        </Typography.Paragraph>
        <div className="hf-card-meta hf-muted">{task.templateCount ?? task.children?.length ?? 0} 个模板</div>
      </div>
    </Link>
  );
}
