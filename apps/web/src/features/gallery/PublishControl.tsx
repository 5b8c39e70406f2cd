import { CloudUploadOutlined, StopOutlined } from '@ant-design/icons';
import type { WorkDetail } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { publishWork } from '../../services/works';
import { worksKeys } from './gallery-queries';

/**
 * 发布到广场 / 取消发布. 隐藏提示词 is chosen before publishing; a published work keeps its choice until it
 * is taken down (publishing again keeps its first date).
 */
export function PublishControl({ work }: { work: WorkDetail }) {
  const queryClient = useQueryClient();
  const [hidePrompt, setHidePrompt] = useState(work.hidePrompt);
  const mutation = useMutation({
    mutationFn: (makePublic: boolean) => publishWork({ id: work.id, public: makePublic, hidePrompt }),
    onSuccess: ({ msg }) => {
      toast(msg, 'success');
      return queryClient.invalidateQueries({ queryKey: worksKeys.all });
    },
  });

  return (
    <div className="hf-work-publish">
      {work.public && <Tag color="purple">已发布到灵感广场</Tag>}
      <Checkbox
        checked={hidePrompt}
        disabled={work.public || mutation.isPending}
        onChange={(event) => setHidePrompt(event.target.checked)}
      >
        隐藏提示词
      </Checkbox>
      {work.public ? (
        <Button icon={<StopOutlined />} loading={mutation.isPending} onClick={() => mutation.mutate(false)}>
          取消发布
        </Button>
      ) : (
        <Button
          type="primary"
          ghost
          icon={<CloudUploadOutlined />}
          loading={mutation.isPending}
          onClick={() => mutation.mutate(true)}
        >
          发布到广场
        </Button>
      )}
    </div>
  );
}
