import { AppstoreOutlined, EyeOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { PublicWorkDetail } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Result, Skeleton, Tooltip } from 'antd';
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../common/format-date-time';
import { LoadFailed } from '../../common/LoadFailed';
import { loraSummary } from '../../features/draw/lora/lora-picks';
import { AuthorBadge } from '../../features/gallery/AuthorBadge';
import { canRecall, recallFromPublic } from '../../features/gallery/recall';
import { ShareWorkButton } from '../../features/gallery/ShareWorkButton';
import { useMakeSame } from '../../features/gallery/use-make-same';
import { useResumedReactions } from '../../features/gallery/use-work-reactions';
import { WorkOriginal } from '../../features/gallery/WorkOriginal';
import { WorkPrompts } from '../../features/gallery/WorkPrompts';
import { WorkReactionButtons } from '../../features/gallery/WorkReactionButtons';
import { isRequestError } from '../../services/request-error';
import { worksQueries } from '../../services/works';
import '../../features/gallery/gallery.css';

/**
 * `/work/:id`, what a link shared in WeChat opens: one public work, readable without an account. 做同款 asks a
 * guest to log in or sign up and then lands on /draw with the work's template and the author's words.
 */
export default function SharedWorkPage() {
  const { id = '' } = useParams();
  useResumedReactions();
  const work = useQuery(worksQueries.shared(id));
  const navigate = useNavigate();
  const title = work.data ? `${work.data.author.nickname}的作品「${titleOf(work.data)}」` : '作品';
  // WeChat's share card and the tab read the page title: it names the work, not just 作品.
  useEffect(() => {
    document.title = `${title} - 画坊`;
  }, [title]);

  return (
    <div className="hf-page hf-shared-work">
      {work.data ? (
        <SharedWork work={work.data} />
      ) : work.isError && !(isRequestError(work.error) && work.error.status === 404) ? (
        <div className="hf-panel">
          <LoadFailed title="作品加载失败" onRetry={() => void work.refetch()} />
        </div>
      ) : work.isError ? (
        <div className="hf-panel">
          <Result
            status="404"
            title="作品不存在或未公开"
            subTitle="作者可能已取消发布或删除了这幅作品"
            extra={
              <Button type="primary" icon={<AppstoreOutlined />} onClick={() => void navigate('/omnibus')}>
                去灵感广场看看
              </Button>
            }
          />
        </div>
      ) : (
        <div className="hf-panel">
          <Skeleton active paragraph={{ rows: 8 }} />
        </div>
      )}
    </div>
  );
}

function titleOf(work: PublicWorkDetail): string {
  return work.templateName || '自由创作';
}

function SharedWork({ work }: { work: PublicWorkDetail }) {
  const { makeSame, recalling } = useMakeSame();
  const recallable = canRecall(recallFromPublic(work));
  const title = titleOf(work);
  const loras = loraSummary(work.parameters?.loras, work.loraStyles);

  return (
    <article className="hf-panel hf-work-detail" aria-label={`作品：${title}`}>
      <WorkOriginal
        url={work.url}
        thumbUrl={work.thumbUrl}
        width={work.width}
        height={work.height}
        alt={title}
        priority
      />
      <div className="hf-work-info">
        <h1 className="hf-work-template hf-shared-work-title">{title}</h1>
        <div className="hf-work-head">
          <AuthorBadge author={work.author} size={32} />
          <span className="hf-work-sub">
            {formatDateTime(work.publishedAt)} · <EyeOutlined /> {work.views}
          </span>
        </div>
        {work.modelName && <div className="hf-work-sub">模型：{work.modelName}</div>}
        {loras && <div className="hf-work-sub">LoRA 风格：{loras}</div>}
        <WorkReactionButtons work={work} />
        {/* 做同款 before the prompts: on a phone it is in view without scrolling. */}
        <div className="hf-work-actions">
          <Tooltip title={recallable ? '用这幅作品的模板和作者写的描述开始创作' : '作者隐藏了提示词，无法做同款'}>
            <Button
              type="primary"
              size="large"
              icon={<ThunderboltOutlined />}
              loading={recalling}
              disabled={!recallable}
              onClick={() => void makeSame(work)}
            >
              做同款
            </Button>
          </Tooltip>
          <ShareWorkButton workId={work.id} />
        </div>
        <WorkPrompts {...work} />
      </div>
    </article>
  );
}
