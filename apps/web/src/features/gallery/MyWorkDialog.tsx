import { CopyOutlined, DeleteOutlined, DownloadOutlined, RedoOutlined } from '@ant-design/icons';
import type { WorkDetail } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Skeleton } from 'antd';
import { formatDateTime } from '../../common/format-date-time';
import { worksQueries } from '../../services/works';
import { copyText } from './copy-text';
import { PublishControl } from './PublishControl';
import { recallFromWork } from './recall';
import { useDeleteWorks } from './use-delete-works';
import { useRecall } from './use-recall';
import { WorkDialog } from './WorkDialog';
import { WorkOriginal } from './WorkOriginal';
import { WorkParameterTable } from './WorkParameterTable';
import { WorkPrompts } from './WorkPrompts';

interface MyWorkDialogProps {
  workId: string | null;
  onClose: () => void;
  onDeleted: (ids: string[]) => void;
}

/** 我的作品 detail: the original, prompts, parameters and everything the owner can do with the work. */
export function MyWorkDialog({ workId, onClose, onDeleted }: MyWorkDialogProps) {
  const detail = useQuery(worksQueries.mineDetail(workId));

  return (
    <WorkDialog open={workId !== null} onClose={onClose}>
      {detail.data ? (
        <MyWorkDetail work={detail.data} onClose={onClose} onDeleted={onDeleted} />
      ) : detail.isError ? (
        <Result status="warning" subTitle="作品不存在或已删除" />
      ) : (
        <Skeleton active paragraph={{ rows: 8 }} />
      )}
    </WorkDialog>
  );
}

function MyWorkDetail({ work, onClose, onDeleted }: { work: WorkDetail } & Omit<MyWorkDialogProps, 'workId'>) {
  const { recall, recalling } = useRecall();
  const confirmDelete = useDeleteWorks();
  const name = work.templateName || '自由创作';

  return (
    <div className="hf-work-detail">
      <WorkOriginal url={work.url} thumbUrl={work.thumbUrl} width={work.width} height={work.height} alt={name} />
      <div className="hf-work-info">
        <div className="hf-work-head">
          <span className="hf-work-template">{name}</span>
          <span className="hf-work-sub">{formatDateTime(work.createdAt)}</span>
        </div>
        <WorkPrompts {...work} />
        <WorkParameterTable parameters={{ ...work.parameters, seed: work.seed }} work={work} />
        <div className="hf-work-actions">
          <Button
            type="primary"
            icon={<RedoOutlined />}
            loading={recalling}
            onClick={() => recall(recallFromWork(work))}
          >
            再次生成
          </Button>
          <Button icon={<CopyOutlined />} onClick={() => copyText(work.prompt)}>
            复制提示词
          </Button>
          <Button icon={<DownloadOutlined />} href={work.url} download={`huafang-${work.id}.png`}>
            下载原图
          </Button>
          <Button
            danger
            icon={<DeleteOutlined />}
            onClick={() =>
              confirmDelete([work.id], (ids) => {
                onClose();
                onDeleted(ids);
              })
            }
          >
            删除
          </Button>
        </div>
        <PublishControl work={work} />
      </div>
    </div>
  );
}
