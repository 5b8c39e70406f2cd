import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton, Typography } from 'antd';
import { Link, useNavigate, useParams } from 'react-router';
import { useApplyTemplate } from '../../features/draw/use-apply-template';
import { CardGridSkeleton } from '../../features/tasks/CardGridSkeleton';
import { OwnTemplateActions } from '../../features/tasks/OwnTemplateActions';
import { TaskHeader } from '../../features/tasks/TaskHeader';
import { TemplateCard } from '../../features/tasks/TemplateCard';
import { useCurrentCategory } from '../../features/tasks/use-current-category';
import { useOwnTask } from '../../features/tasks/use-own-task';
import { taskQueries } from '../../services/task';
import '../../features/tasks/tasks.css';

export default function TaskDetailPage() {
  const { id = '' } = useParams();
  const navigate = useNavigate();
  const list = useQuery(taskQueries.templateList(id));
  const { category } = useCurrentCategory();
  const { apply, applyingId } = useApplyTemplate();
  const task = list.data?.find((item) => item.taskId === id);
  const own = useOwnTask(id);

  if (list.isPending) {
    return (
      <div className="hf-page">
        <Skeleton active paragraph={{ rows: 3 }} className="hf-panel" />
        <CardGridSkeleton count={4} />
      </div>
    );
  }
  if (!task) {
    return (
      <div className="hf-page">
        <Result
          status={list.isError ? 'error' : '404'}
          title={list.isError ? '任务加载失败' : '任务不存在或尚未发布'}
          extra={
            <Link to="/tasks">
              <Button type="primary">返回全部任务</Button>
            </Link>
          }
        />
      </div>
    );
  }

  const openInDraw = (templateId: string) => apply(templateId, { onSuccess: () => navigate('/draw') });

  return (
    <div className="hf-page">
      <TaskHeader task={task} category={category} />
      <Typography.Title level={4} className="hf-section-title">
        模板
      </Typography.Title>
      {task.visTemplateList.length === 0 ? (
        <div className="hf-panel hf-empty-panel">
          <Empty description="这个任务还没有可用的模板" />
        </div>
      ) : (
        <div className="hf-card-grid">
          {task.visTemplateList.map((template) => (
            <TemplateCard
              key={template.templateId}
              template={template}
              applying={applyingId === template.templateId}
              onUse={openInDraw}
              actions={own ? <OwnTemplateActions taskId={task.taskId} template={template} /> : null}
            />
          ))}
        </div>
      )}
    </div>
  );
}
