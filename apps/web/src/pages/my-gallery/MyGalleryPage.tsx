import type { WorkItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Pagination, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FavoriteWorks } from '../../features/gallery/FavoriteWorks';
import { GalleryEmpty } from '../../features/gallery/GalleryEmpty';
import { type GalleryFilters, hasFilters, NO_FILTERS, profileQuery } from '../../features/gallery/gallery-filters';
import { MyGalleryFilters } from '../../features/gallery/MyGalleryFilters';
import { MyWorkDialog } from '../../features/gallery/MyWorkDialog';
import { MyWorksGrid, MyWorksGridSkeleton } from '../../features/gallery/MyWorksGrid';
import { NoticeBell } from '../../features/gallery/NoticeBell';
import { SelectionBar } from '../../features/gallery/SelectionBar';
import { useDeleteWorks } from '../../features/gallery/use-delete-works';
import { useWorksZip } from '../../features/gallery/use-works-zip';
import { worksQueries } from '../../services/works';
import '../../features/gallery/gallery.css';

const PAGE_SIZE = 30;

/** ?tab=favorites opens 我的收藏, so the tab survives a reload and can be linked to. */
const FAVORITES_TAB = 'favorites';
const VIEW_TABS = [
  { key: 'mine', label: '我创作的' },
  { key: FAVORITES_TAB, label: '我的收藏' },
];

/**
 * 我的作品: the user's works by day, with filters, 多选 (删除, 打包下载) and the detail dialog; 我的收藏 beside them;
 * 通知 (a work taken down, and why) in the head.
 */
export default function MyGalleryPage() {
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const showFavorites = searchParams.get('tab') === FAVORITES_TAB;
  const [filters, setFilters] = useState<GalleryFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [selecting, setSelecting] = useState(false);
  // Kept across pages, so one zip or deletion can gather works from several pages.
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [openedId, setOpenedId] = useState<string | null>(null);
  const works = useQuery(worksQueries.minePage(profileQuery(filters, page, PAGE_SIZE)));
  const confirmDelete = useDeleteWorks();
  const zip = useWorksZip();
  const list = works.data?.list ?? [];
  const total = works.data?.total ?? 0;

  function changeFilters(patch: Partial<GalleryFilters>) {
    setFilters((current) => ({ ...current, ...patch }));
    setPage(1);
    setSelected(new Set());
  }

  function changeSelecting(next: boolean) {
    setSelecting(next);
    setSelected(new Set());
  }

  function toggle(id: string) {
    setSelected((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }

  function selectPage(checked: boolean) {
    setSelected((current) => {
      const next = new Set(current);
      for (const work of list) {
        if (checked) next.add(work.id);
        else next.delete(work.id);
      }
      return next;
    });
  }

  function onDeleted(ids: string[]) {
    setSelected((current) => new Set([...current].filter((id) => !ids.includes(id))));
    // Emptying the last page steps back to the one before.
    if (page > 1 && list.every((work) => ids.includes(work.id))) setPage(page - 1);
  }

  const activate = (work: WorkItem) => (selecting ? toggle(work.id) : setOpenedId(work.id));
  // On touch screens a long press starts 多选 with the pressed work already chosen.
  const pressLong = (work: WorkItem) => {
    if (selecting) return toggle(work.id);
    setSelecting(true);
    setSelected(new Set([work.id]));
  };

  return (
    <div className="hf-page">
      <div className="hf-page-head">
        <Typography.Title level={3} className="hf-page-title">
          我的作品
        </Typography.Title>
        {works.data && !showFavorites && <span className="hf-gallery-count">共 {total} 个作品</span>}
        <span className="hf-page-head-end">
          <NoticeBell />
        </span>
      </div>
      <Tabs
        className="hf-gallery-views"
        activeKey={showFavorites ? FAVORITES_TAB : 'mine'}
        onChange={(key) => setSearchParams(key === FAVORITES_TAB ? { tab: FAVORITES_TAB } : {})}
        items={VIEW_TABS}
      />
      {showFavorites ? (
        <FavoriteWorks />
      ) : (
        <>
          <div className="hf-gallery-toolbar">
            <MyGalleryFilters value={filters} onChange={changeFilters} />
            <SelectionBar
              selecting={selecting}
              onSelectingChange={changeSelecting}
              pageIds={list.map((work) => work.id)}
              selected={selected}
              onSelectPage={selectPage}
              onDelete={() => confirmDelete([...selected], onDeleted)}
              onDownload={() => zip.download([...selected])}
              downloading={zip.downloading}
            />
          </div>
          <div className="hf-panel">
            {works.isPending ? (
              <MyWorksGridSkeleton />
            ) : list.length === 0 ? (
              <GalleryEmpty
                failed={works.isError}
                onRetry={() => void works.refetch()}
                filtered={hasFilters(filters)}
                onClear={() => changeFilters(NO_FILTERS)}
                onCreate={() => navigate('/draw')}
              />
            ) : (
              <MyWorksGrid
                works={list}
                selecting={selecting}
                selected={selected}
                onActivate={activate}
                onLongPress={pressLong}
              />
            )}
            {total > PAGE_SIZE && (
              <Pagination
                className="hf-gallery-pager"
                current={page}
                pageSize={PAGE_SIZE}
                total={total}
                showSizeChanger={false}
                showTotal={(count) => `共 ${count} 个`}
                onChange={setPage}
              />
            )}
          </div>
        </>
      )}
      <MyWorkDialog workId={openedId} onClose={() => setOpenedId(null)} onDeleted={onDeleted} />
    </div>
  );
}
