import { AppstoreOutlined, SwapOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'antd';
import { taskQueries } from '../../services/task';
import { useDraw } from '../../stores/draw';
import './draw.css';

/** 当前任务: the task and template being edited, and 切换 to pick another. */
export function CurrentTemplateCard() {
  const detail = useDraw((state) => state.taskTemplateDetails);
  const openTaskSelect = useDraw((state) => state.openTaskSelect);
  const templateTask = useQuery(taskQueries.templateTask(detail?.templateId ?? null));
  const taskName = detail ? (templateTask.data?.task.name ?? '…') : '尚未选择任务';

  return (
    <div className="hf-draw-task">
      <AppstoreOutlined className="hf-draw-task-icon" />
      <div className="hf-draw-task-info">
        <div className="hf-draw-task-name" title={taskName}>
          {taskName}
        </div>
        <div className="hf-draw-template-name" title={detail?.name}>
          {detail ? `模板：${detail.name}` : '选择一个模板开始创作'}
        </div>
      </div>
      <Button size="small" icon={<SwapOutlined />} onClick={openTaskSelect}>
        切换
      </Button>
    </div>
  );
}
