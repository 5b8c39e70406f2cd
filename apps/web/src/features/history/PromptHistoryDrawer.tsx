import { PROMPT_HISTORY_PAGE_SIZE, type PromptHistoryItem } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Empty, Input, Pagination, Result, Skeleton, Spin } from 'antd';
import { useState } from 'react';
import { useDrawerSize } from '../../common/use-screen';
import { toast } from '../../services/notices';
import { historyQueries } from '../../services/prompt-history';
import { HistoryEntry } from './HistoryEntry';
import { HistorySelectionBar } from './HistorySelectionBar';
import { useHistoryDelete, useHistoryPin } from './use-history-edits';
import { useHistoryImport } from './use-history-import';
import './history.css';

interface PromptHistoryDrawerProps {
  open: boolean;
  onClose: () => void;
}

/** 历史: the prompts of past generations, pinned first; search, 导入, 置顶 and 删除. */
export function PromptHistoryDrawer({ open, onClose }: PromptHistoryDrawerProps) {
  const [current, setCurrent] = useState(1);
  const drawerSize = useDrawerSize(560);
  const [keyword, setKeyword] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const history = useQuery({
    ...historyQueries.page({ current, pageSize: PROMPT_HISTORY_PAGE_SIZE, ...(keyword ? { keyword } : {}) }),
    enabled: open,
  });
  // A pinned entry moves to the top of page 1: show it there.
  const pin = useHistoryPin((pinned) => pinned && setCurrent(1));
  // Spec §4/§9: after deleting, the history reloads page 1 with page size 15.
  const remove = useHistoryDelete(() => {
    toast('删除成功', 'success');
    setSelected([]);
    setCurrent(1);
  });
  const importEntry = useHistoryImport();
  const page = history.data;

  const goTo = (next: number) => {
    setCurrent(next);
    setSelected([]);
  };
  const onImport = (entry: PromptHistoryItem) => {
    if (importEntry(entry)) onClose();
  };
  const busyIds = new Set([
    ...(pin.isPending && pin.variables ? [pin.variables.id] : []),
    ...(remove.isPending ? (remove.variables ?? []) : []),
  ]);

  return (
    <Drawer title="提示词历史" open={open} onClose={onClose} size={drawerSize} className="hf-history-drawer">
      <Input.Search
        placeholder="搜索提示词（中文或英文），回车搜索"
        allowClear
        enterButton="搜索"
        maxLength={50}
        onSearch={(value) => {
          setKeyword(value.trim());
          goTo(1);
        }}
        aria-label="搜索历史记录"
      />
      <HistorySelectionBar
        pageIds={page?.list.map((entry) => entry.id) ?? []}
        selected={selected}
        onSelect={setSelected}
        onDelete={() => remove.mutate(selected)}
        deleting={remove.isPending}
      />
      {history.isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : history.isError && !page ? (
        <Result
          status="warning"
          title="历史记录加载失败"
          extra={<Button onClick={() => void history.refetch()}>重试</Button>}
        />
      ) : !page || page.list.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={keyword ? `没有包含“${keyword}”的历史记录` : '暂无历史记录，生成后会自动保存'}
        />
      ) : (
        <Spin spinning={history.isFetching}>
          <ul className="hf-stack-list" aria-label="历史记录">
            {page.list.map((entry) => (
              <HistoryEntry
                key={entry.id}
                entry={entry}
                selected={selected.includes(entry.id)}
                onSelect={(checked) =>
                  setSelected((ids) => (checked ? [...ids, entry.id] : ids.filter((id) => id !== entry.id)))
                }
                onImport={() => onImport(entry)}
                onPin={(pinned) => pin.mutate({ id: entry.id, pinned })}
                onDelete={() => remove.mutate([entry.id])}
                busy={busyIds.has(entry.id)}
              />
            ))}
          </ul>
          <Pagination
            className="hf-history-pagination"
            size="small"
            current={page.current}
            pageSize={PROMPT_HISTORY_PAGE_SIZE}
            total={page.total}
            showSizeChanger={false}
            hideOnSinglePage
            showTotal={(total) => `共 ${total} 条`}
            onChange={goTo}
          />
        </Spin>
      )}
    </Drawer>
  );
}
