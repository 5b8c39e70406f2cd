import { Empty, Modal, Spin, Tabs } from 'antd';
import { useEffect } from 'react';
import { useDraw } from '../../stores/draw';
import { TaskTemplateSection } from './TaskTemplateSection';
import { useApplyTemplate } from './use-apply-template';
import { useTasksFetch } from './use-tasks-fetch';
import './draw.css';

/** The task-selection dialog (spec §2): category tabs, their tasks and templates; a pick loads the template. */
export function TaskSelectDialog() {
  const open = useDraw((state) => state.taskSelectOpen);
  const close = useDraw((state) => state.closeTaskSelect);
  const taskData = useDraw((state) => state.taskData);
  const taskList = useDraw((state) => state.taskList);
  const templateId = useDraw((state) => state.templateId);
  const { loading, categoryId, fetchTasks } = useTasksFetch();
  const { apply, applyingId } = useApplyTemplate();

  useEffect(() => {
    if (open) void fetchTasks();
  }, [open, fetchTasks]);

  const pick = (id: string) => apply(id, { onSuccess: close });
  const shown = taskList.filter((task) => task.visTemplateList.length > 0);

  return (
    <Modal open={open} title="选择任务模板" onCancel={close} footer={null} width={960} className="hf-task-select">
      <Tabs
        activeKey={categoryId ?? undefined}
        onChange={(key) => void fetchTasks(key)}
        items={taskData.map((category) => ({ key: category.id, label: category.name }))}
      />
      <Spin spinning={loading}>
        <div className="hf-pick-body-scroll">
          {shown.length === 0 ? (
            <Empty description={loading ? '正在加载…' : '这个分类下还没有模板'} />
          ) : (
            shown.map((task) => (
              <TaskTemplateSection
                key={task.taskId}
                task={task}
                currentTemplateId={templateId}
                applyingId={applyingId}
                onPick={pick}
              />
            ))
          )}
        </div>
      </Spin>
    </Modal>
  );
}
