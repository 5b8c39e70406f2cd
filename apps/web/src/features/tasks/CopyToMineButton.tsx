import { CopyOutlined } from '@ant-design/icons';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { toast } from '../../services/notices';
import { copyTaskToMine, taskKeys, taskQueries } from '../../services/task';

/** 复制到我的: only offered when the server says the task may be copied. */
export function CopyToMineButton({ taskId }: { taskId: string }) {
  const queryClient = useQueryClient();
  const copiable = useQuery(taskQueries.copiable(taskId));
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
