import { type TaskTemplateListItem, taskUpdateBodySchema } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { toast } from '../../services/notices';
import { taskKeys } from '../../services/task';
import { updateTask } from '../../services/task-admin';
import { zodRule } from '../account/zod-rule';

interface OwnTaskValues {
  name: string;
  description: string;
}

const { shape } = taskUpdateBodySchema.required();

/** 编辑 of one's own copied task: its name and description. */
export function OwnTaskDialog({
  open,
  task,
  onClose,
}: {
  open: boolean;
  task: TaskTemplateListItem;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: OwnTaskValues) =>
      updateTask(task.taskId, { name: values.name.trim(), description: values.description.trim() }),
    onSuccess: async (saved) => {
      toast(`「${saved.name}」已保存`, 'success');
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: taskKeys.templateList(task.taskId) }),
        queryClient.invalidateQueries({ queryKey: taskKeys.tree('/mine') }),
      ]);
      onClose();
    },
  });

  return (
    <FormDialog<OwnTaskValues>
      open={open}
      title="编辑任务"
      width={480}
      onClose={onClose}
      submitLabel="保存"
      submitting={save.isPending}
      error={save.error?.message ?? null}
      initialValues={{ name: task.taskName, description: task.description }}
      onFinish={(values) => save.mutate(values)}
    >
      <Form.Item name="name" label="任务名称" rules={[zodRule(shape.name)]}>
        <Input maxLength={30} autoFocus />
      </Form.Item>
      <Form.Item name="description" label="简介" rules={[zodRule(shape.description)]}>
        <Input.TextArea maxLength={200} showCount autoSize={{ minRows: 3, maxRows: 6 }} />
      </Form.Item>
    </FormDialog>
  );
}
