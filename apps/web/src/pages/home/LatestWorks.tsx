import { ArrowRightOutlined } from '@ant-design/icons';
import type { PublicWorkItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Empty } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { lazyNamed, MountWhenOpened } from '../../components/MountWhenOpened';
import { useResumedReactions } from '../../features/gallery/use-work-reactions';
import { WorkMasonry, WorkMasonrySkeleton } from '../../features/gallery/WorkMasonry';
import { worksQueries } from '../../services/works';

// The detail dialog (image viewer, parameter table) comes with the first work opened, not with the home page.
const PublicWorkDialog = lazyNamed(() => import('../../features/gallery/PublicWorkDialog'), 'PublicWorkDialog');

/** Also what the server renders the section with (ssr/entry-server.tsx). */
export const LATEST_COUNT = 12;

/** 最新作品: the newest public works (spec §7 `/api/works/public/list`, readable logged out). */
export function LatestWorks() {
  useResumedReactions();
  const works = useQuery(worksQueries.latest(LATEST_COUNT));
  const [opened, setOpened] = useState<PublicWorkItem | null>(null);
  const list = works.data?.list ?? [];

  return (
    <section className="hf-home-section" aria-label="最新作品">
      <div className="hf-section-head">
        <h2>最新作品</h2>
        <span className="hf-section-sub">来自社区的最新创作</span>
        <Link to="/omnibus" className="hf-section-more">
          查看更多 <ArrowRightOutlined />
        </Link>
      </div>
      {works.isPending ? (
        <WorkMasonrySkeleton />
      ) : list.length === 0 ? (
        <div className="hf-panel hf-empty-panel">
          <Empty description="还没有公开作品，快来创作第一幅吧" />
        </div>
      ) : (
        <WorkMasonry works={list} onOpen={setOpened} />
      )}
      <MountWhenOpened opened={opened !== null}>
        <PublicWorkDialog work={opened} onClose={() => setOpened(null)} />
      </MountWhenOpened>
    </section>
  );
}
