import type { PublicWorkItem } from '@huafang/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Empty, Spin } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { worksQueries } from '../../services/works';
import { PublicWorkDialog } from './PublicWorkDialog';
import { useSentinel } from './use-sentinel';
import { WorkMasonry, WorkMasonrySkeleton } from './WorkMasonry';
import { worksOfPages } from './work-pages';

/** 我的收藏: works the user favourited on 灵感广场, the latest first, page after page as they scroll. */
export function FavoriteWorks() {
  const navigate = useNavigate();
  const [opened, setOpened] = useState<PublicWorkItem | null>(null);
  const works = useInfiniteQuery(worksQueries.favorites());
  const list = worksOfPages(works.data?.pages);
  const total = works.data?.pages.at(-1)?.total ?? 0;
  const loadMore = () => {
    if (works.hasNextPage && !works.isFetchingNextPage) void works.fetchNextPage();
  };
  const sentinel = useSentinel<HTMLDivElement>(loadMore, works.hasNextPage, list.length);

  if (works.isPending) return <WorkMasonrySkeleton />;
  if (works.isError && list.length === 0) {
    return (
      <div className="hf-panel hf-empty-panel">
        <Empty description="收藏加载失败">
          <Button onClick={() => void works.refetch()}>重试</Button>
        </Empty>
      </div>
    );
  }
  if (list.length === 0) {
    return (
      <div className="hf-panel hf-empty-panel">
        <Empty description="还没有收藏，在灵感广场点「收藏」的作品会出现在这里">
          <Button type="primary" onClick={() => navigate('/omnibus')}>
            去灵感广场
          </Button>
        </Empty>
      </div>
    );
  }
  return (
    <>
      <WorkMasonry works={list} onOpen={setOpened} />
      <div ref={sentinel} className="hf-masonry-end">
        {works.isFetchingNextPage ? (
          <>
            <Spin size="small" /> 加载中…
          </>
        ) : works.hasNextPage ? (
          <Button type="link" onClick={loadMore}>
            加载更多
          </Button>
        ) : (
          `共收藏 ${total} 幅作品`
        )}
      </div>
      <PublicWorkDialog work={opened} onClose={() => setOpened(null)} />
    </>
  );
}
