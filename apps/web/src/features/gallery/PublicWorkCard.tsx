import { EyeOutlined } from '@ant-design/icons';
import type { PublicWorkItem } from '@huafang/contracts';
import { AigcBadge } from '../../common/AigcBadge';
import { AuthorBadge } from './AuthorBadge';
import { CARD_SIZES, thumbSrcSet } from './thumb-srcset';
import { WorkReactionButtons } from './WorkReactionButtons';

interface PublicWorkCardProps {
  work: PublicWorkItem;
  onOpen: (work: PublicWorkItem) => void;
  /** On the first screen: loaded at once and first; the others wait until they are scrolled near. */
  priority?: boolean;
}

/**
 * A masonry card: the WebP thumbnail at its own aspect ratio (no jump when it loads) with the AI生成 badge, author,
 * 点赞 and 收藏 (pressable right on the card) and views.
 */
export function PublicWorkCard({ work, onOpen, priority = false }: PublicWorkCardProps) {
  const title = work.templateName || '自由创作';
  return (
    <article className="hf-public-card">
      <div className="hf-aigc-frame">
        <button
          type="button"
          className="hf-zoom-thumb hf-public-thumb"
          style={{ aspectRatio: `${work.width} / ${work.height}` }}
          onClick={() => onOpen(work)}
          aria-label={`查看作品：${title}（${work.author.nickname}）`}
        >
          <img
            src={work.thumbUrl}
            srcSet={thumbSrcSet(work)}
            sizes={CARD_SIZES}
            width={work.width}
            height={work.height}
            alt={title}
            loading={priority ? 'eager' : 'lazy'}
            fetchPriority={priority ? 'high' : 'auto'}
          />
        </button>
        <AigcBadge />
      </div>
      <div className="hf-public-meta">
        <AuthorBadge author={work.author} />
        <span className="hf-public-views" title="浏览次数">
          <EyeOutlined /> {work.views}
        </span>
      </div>
      <div className="hf-public-actions">
        <WorkReactionButtons work={work} size="small" />
      </div>
    </article>
  );
}
