import type { PublicWorkItem } from '@huafang/contracts';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Button, Empty, Spin, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { OmnibusCategorySelect } from '../../features/gallery/OmnibusCategorySelect';
import { PublicWorkDialog } from '../../features/gallery/PublicWorkDialog';
import { useSentinel } from '../../features/gallery/use-sentinel';
import { useResumedReactions } from '../../features/gallery/use-work-reactions';
import { WorkMasonry, WorkMasonrySkeleton } from '../../features/gallery/WorkMasonry';
import { worksOfPages } from '../../features/gallery/work-pages';
import type { PublicWorkOrder } from '../../services/works';
import { worksQueries } from '../../services/works';
import { useSession } from '../../stores/session';
import '../../features/gallery/gallery.css';

const ORDER_TABS: { key: PublicWorkOrder; label: string }[] = [
  { key: 'latest', label: '最新' },
  { key: 'hot', label: '热门' },
];

/** The works a phone shows above the fold (two rows of two); also what the server preloads (ssr/entry-server.tsx). */
export const OMNIBUS_FIRST_SCREEN = 4;

/** 灵感广场: the community's public works, newest or most viewed, page after page as the reader scrolls. */
export default function OmnibusPage() {
  useResumedReactions();
  const loggedIn = useSession((state) => Boolean(state.token));
  const [order, setOrder] = useState<PublicWorkOrder>('latest');
  const [categoryId, setCategoryId] = useState<string | undefined>();
  const [opened, setOpened] = useState<PublicWorkItem | null>(null);
  const works = useInfiniteQuery(worksQueries.public(order, loggedIn ? categoryId : undefined));
  const list = worksOfPages(works.data?.pages);
  const total = works.data?.pages.at(-1)?.total ?? 0;

  const loadMore = () => {
    if (works.hasNextPage && !works.isFetchingNextPage) void works.fetchNextPage();
  };
  const sentinel = useSentinel<HTMLDivElement>(loadMore, works.hasNextPage, list.length);

  return (
    <div className="hf-page">
      <Typography.Title level={3} className="hf-page-title">
        灵感广场
      </Typography.Title>
      <Tabs
        className="hf-omnibus-tabs"
        activeKey={order}
        onChange={(key) => setOrder(key as PublicWorkOrder)}
        items={ORDER_TABS}
        tabBarExtraContent={loggedIn && <OmnibusCategorySelect value={categoryId} onChange={setCategoryId} />}
      />
      {works.isPending ? (
        <WorkMasonrySkeleton />
      ) : list.length === 0 ? (
        <div className="hf-panel hf-empty-panel">
          <Empty description={categoryId ? '这个分类还没有公开作品' : '还没有公开作品，去「我的作品」发布第一幅吧'} />
        </div>
      ) : (
        <>
          <WorkMasonry works={list} onOpen={setOpened} firstScreen={OMNIBUS_FIRST_SCREEN} />
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
              `共 ${total} 幅作品，已经到底了`
            )}
          </div>
        </>
      )}
      <PublicWorkDialog work={opened} onClose={() => setOpened(null)} />
    </div>
  );
}
