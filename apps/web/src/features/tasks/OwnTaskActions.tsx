import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { TaskTemplateListItem } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmAction } from '../../common/ConfirmAction';
import { toast } from '../../services/notices';
import { taskKeys } from '../../services/task';
import { deleteTask } from '../../services/task-admin';
import { OwnTaskDialog } from './OwnTaskDialog';

/** 编辑 and 删除 of a task copied into 我的任务: the copy belongs to its owner. */
export function OwnTaskActions({ task }: { task: TaskTemplateListItem }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const remove = useMutation({
    mutationFn: () => deleteTask(task.taskId),
    onSuccess: async () => {
      toast(`已删除「${task.taskName}」`, 'success');
      await queryClient.invalidateQueries({ queryKey: taskKeys.tree('/mine') });
      navigate('/tasks');
    },
  });

  return (
    <Space wrap>
      <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
        编辑
      </Button>
      <ConfirmAction
        title={`删除「${task.taskName}」？`}
        description="删除后这个任务和它的模板都不再可用，已生成的作品保留"
        loading={remove.isPending}
        onConfirm={() => remove.mutateAsync().catch(() => undefined)}
      >
        <Button danger icon={<DeleteOutlined />}>
          删除
        </Button>
      </ConfirmAction>
      <OwnTaskDialog open={editing} task={task} onClose={() => setEditing(false)} />
    </Space>
  );
}
