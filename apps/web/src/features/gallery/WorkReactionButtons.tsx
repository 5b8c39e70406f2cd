import { HeartFilled, HeartOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import type { PublicWorkItem } from '@huafang/contracts';
import { Button } from 'antd';
import { useWorkReactions } from './use-work-reactions';

interface WorkReactionButtonsProps {
  work: Pick<PublicWorkItem, 'id' | 'likes' | 'favorites' | 'liked' | 'favorited'>;
  /** Small on cards, full size in the detail. */
  size?: 'small' | 'middle';
  /** Called when a guest was sent to the login dialog instead. */
  onAskedToLogin?: () => void;
}

/** 点赞 and 收藏 with their counts; pressed again, each is taken back. */
export function WorkReactionButtons({ work, size = 'middle', onAskedToLogin }: WorkReactionButtonsProps) {
  const { toggle, pending } = useWorkReactions(work);
  const press = (kind: 'like' | 'favorite') => {
    if (!toggle(kind)) onAskedToLogin?.();
  };
  return (
    <span className="hf-reactions">
      <Button
        size={size}
        variant="text"
        color={work.liked ? 'primary' : 'default'}
        icon={work.liked ? <HeartFilled /> : <HeartOutlined />}
        aria-label={work.liked ? `取消点赞（${work.likes} 个赞）` : `点赞（${work.likes} 个赞）`}
        aria-pressed={work.liked}
        loading={pending === 'like'}
        onClick={() => press('like')}
      >
        {work.likes}
      </Button>
      <Button
        size={size}
        variant="text"
        color={work.favorited ? 'primary' : 'default'}
        icon={work.favorited ? <StarFilled /> : <StarOutlined />}
        aria-label={work.favorited ? `取消收藏（${work.favorites} 人收藏）` : `收藏（${work.favorites} 人收藏）`}
        aria-pressed={work.favorited}
        loading={pending === 'favorite'}
        onClick={() => press('favorite')}
      >
        {work.favorites}
      </Button>
    </span>
  );
}
