import { CopyOutlined, EyeOutlined, FlagOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { PublicWorkItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Skeleton, Tooltip } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../common/format-date-time';
import { toast } from '../../services/notices';
import { worksQueries } from '../../services/works';
import { useSession } from '../../stores/session';
import { AuthorBadge } from './AuthorBadge';
import { copyText } from './copy-text';
import { ReportWorkDialog } from './ReportWorkDialog';
import { canRecall, recallFromPublic } from './recall';
import { ShareWorkButton } from './ShareWorkButton';
import { useMakeSame } from './use-make-same';
import { WorkDialog } from './WorkDialog';
import { WorkOriginal } from './WorkOriginal';
import { WorkParameterTable } from './WorkParameterTable';
import { WorkPrompts } from './WorkPrompts';
import { WorkReactionButtons } from './WorkReactionButtons';

interface PublicWorkDialogProps {
  /** The card that was opened: its thumbnail and author show at once while the detail loads. */
  work: PublicWorkItem | null;
  onClose: () => void;
}

/** 灵感广场 detail: the original, author, prompts and parameters unless hidden, 复制提示词, 做同款 and the work page's link. */
export function PublicWorkDialog({ work, onClose }: PublicWorkDialogProps) {
  const detail = useQuery(worksQueries.publicDetail(work?.id ?? null));
  const { makeSame, recalling } = useMakeSame();
  const data = detail.data;
  const recallable = data ? canRecall(recallFromPublic(data)) : false;
  const [reporting, setReporting] = useState<string | null>(null);

  /** 举报 needs a login: the login dialog takes this one's place, as for 做同款. */
  function onReport() {
    const session = useSession.getState();
    if (!session.token) {
      toast('请先登录', 'info');
      session.openDialog('login');
      onClose();
      return;
    }
    if (work) setReporting(work.id);
  }

  async function onMakeSame() {
    // The login dialog takes this one's place; a recall leaves the page, which closes it.
    if (data && !(await makeSame(data))) onClose();
  }

  return (
    <WorkDialog open={work !== null} onClose={onClose}>
      {work && (
        <div className="hf-work-detail">
          <WorkOriginal
            url={work.url}
            thumbUrl={work.thumbUrl}
            width={work.width}
            height={work.height}
            alt={work.templateName || '自由创作'}
          />
          <div className="hf-work-info">
            <div className="hf-work-head">
              <AuthorBadge author={work.author} size={32} />
              <span className="hf-work-sub">
                {formatDateTime(work.publishedAt)} · <EyeOutlined /> {data?.views ?? work.views}
              </span>
            </div>
            <div className="hf-work-template">{work.templateName || '自由创作'}</div>
            {/* The card's counts show at once; the detail's replace them when it comes. */}
            <WorkReactionButtons work={data ?? work} onAskedToLogin={onClose} />
            {detail.isError && !data ? (
              <Result status="warning" subTitle="作品不存在或未公开" />
            ) : !data ? (
              <Skeleton active paragraph={{ rows: 6 }} />
            ) : (
              <>
                <WorkPrompts {...data} />
                {data.parameters && <WorkParameterTable parameters={data.parameters} work={data} />}
                <div className="hf-work-actions">
                  <Tooltip
                    title={recallable ? '用这幅作品的模板、提示词和参数开始创作' : '作者隐藏了提示词，无法做同款'}
                  >
                    <Button
                      type="primary"
                      icon={<ThunderboltOutlined />}
                      loading={recalling}
                      disabled={!recallable}
                      onClick={onMakeSame}
                    >
                      做同款
                    </Button>
                  </Tooltip>
                  <Button
                    icon={<CopyOutlined />}
                    disabled={data.prompt === null}
                    onClick={() => copyText(data.prompt ?? '')}
                  >
                    复制提示词
                  </Button>
                  <ShareWorkButton workId={data.id} />
                  <Button icon={<FlagOutlined />} type="text" danger onClick={onReport}>
                    举报
                  </Button>
                </div>
              </>
            )}
          </div>
        </div>
      )}
      <ReportWorkDialog workId={reporting} onClose={() => setReporting(null)} />
    </WorkDialog>
  );
}
