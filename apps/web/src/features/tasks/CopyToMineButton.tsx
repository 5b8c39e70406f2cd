import { CopyOutlined } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { toast } from '../../services/notices';
import { copyTaskToMine } from '../../services/task';
import { taskKeys, useCopiable } from './task-queries';

/** 复制到我的: only offered when the server says the task may be copied. */
export function CopyToMineButton({ taskId }: { taskId: string }) {
  const queryClient = useQueryClient();
  const copiable = useCopiable(taskId);
  const copy = useMutation({
    mutationFn: () => copyTaskToMine(taskId),
    onSuccess: (task) => {
      toast(`已复制到我的任务：${task.name}`, 'success');
      void queryClient.invalidateQueries({ queryKey: taskKeys.tree('/mine') });
    },
  });

  if (!copiable.data?.copiable) return null;
  return (
    <Button icon={<CopyOutlined />} loading={copy.isPending} onClick={() => copy.mutate()}>
      复制到我的
    </Button>
  );
}
