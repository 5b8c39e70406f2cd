import { CloudUploadOutlined, StopOutlined } from '@ant-design/icons';
import type { WorkDetail } from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, Tag } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { publishWork, worksKeys } from '../../services/works';
import { ShareWorkButton } from './ShareWorkButton';

/**
 * 发布到广场 / 取消发布, and 隐藏提示词: chosen before publishing, or changed on a published work at once
 * (publishing again keeps its first date, so the work keeps its place in 最新).
 */
export function PublishControl({ work }: { work: WorkDetail }) {
  const queryClient = useQueryClient();
  const [hidePrompt, setHidePrompt] = useState(work.hidePrompt);
  const mutation = useMutation({
    mutationFn: ({ makePublic, hide }: { makePublic: boolean; hide: boolean }) =>
      publishWork({ id: work.id, public: makePublic, hidePrompt: hide }),
    onSuccess: ({ msg }) => {
      toast(msg, 'success');
      return queryClient.invalidateQueries({ queryKey: worksKeys.all });
    },
    // A refusal (the request layer showed why) may still have changed the work: held for review shows 审核中.
    onError: () => queryClient.invalidateQueries({ queryKey: worksKeys.all }),
  });

  // 内容审核: a work held for an admin waits; one taken down cannot go out again.
  const held = work.moderation === 'pending' || work.moderation === 'removed';

  return (
    <div className="hf-work-publish">
      {work.public && <Tag color="purple">已发布到灵感广场</Tag>}
      {work.moderation === 'pending' && <Tag color="orange">审核中，通过后自动发布</Tag>}
      {work.moderation === 'removed' && <Tag color="red">已被管理员下架</Tag>}
      <Checkbox
        checked={hidePrompt}
        disabled={mutation.isPending}
        onChange={(event) => {
          const hide = event.target.checked;
          setHidePrompt(hide);
          if (work.public) mutation.mutate({ makePublic: true, hide });
        }}
      >
        隐藏提示词
      </Checkbox>
      {work.public ? (
        <Button
          icon={<StopOutlined />}
          loading={mutation.isPending}
          onClick={() => mutation.mutate({ makePublic: false, hide: hidePrompt })}
        >
          取消发布
        </Button>
      ) : (
        <Button
          type="primary"
          ghost
          icon={<CloudUploadOutlined />}
          loading={mutation.isPending}
          disabled={held}
          onClick={() => mutation.mutate({ makePublic: true, hide: hidePrompt })}
        >
          发布到广场
        </Button>
      )}
      {/* Published, the work has a page of its own a friend can open. */}
      {work.public && <ShareWorkButton workId={work.id} />}
    </div>
  );
}
