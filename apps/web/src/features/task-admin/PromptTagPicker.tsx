import type { PromptGroupItem, PromptTreeNode } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Collapse, Drawer, Empty, Input, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useDrawerSize } from '../../common/use-screen';
import { HELP_URL_FLAG, promptQueries } from '../../services/prompt';
import {
  filterPromptTree,
  hasItem,
  libraryItem,
  type PromptSide,
  type PromptWordInput,
  wordOf,
} from './prompt-group-ops';

interface PromptTagPickerProps {
  open: boolean;
  side: PromptSide;
  group: PromptGroupItem[];
  onToggle: (word: PromptWordInput) => void;
  onClose: () => void;
}

/** The library changes only when an admin edits words; the picker reopens without asking within this. */
const LIBRARY_FRESH_MS = 5 * 60_000;
const SIDE_TITLES: Record<PromptSide, string> = { positive: '正向提示词词库', negative: '反向提示词词库' };

function WordTags({
  words,
  side,
  group,
  onToggle,
}: Omit<PromptTagPickerProps, 'open' | 'onClose'> & { words: PromptTreeNode[] }) {
  return (
    <div className="hf-ta-chips">
      {words.map((node) => {
        const word = wordOf(node);
        return (
          <Tooltip key={node.key} title={word.text}>
            <Tag.CheckableTag checked={hasItem(group, libraryItem(word, side))} onChange={() => onToggle(word)}>
              {word.label}
            </Tag.CheckableTag>
          </Tooltip>
        );
      })}
    </div>
  );
}

/** The tag library (category → subcategory → word): click a word to add it to the group, again to take it out. */
export function PromptTagPicker({ open, side, group, onToggle, onClose }: PromptTagPickerProps) {
  const [keyword, setKeyword] = useState('');
  const drawerSize = useDrawerSize(480);
  const library = useQuery({
    ...promptQueries.tree(side, HELP_URL_FLAG.all),
    enabled: open,
    staleTime: LIBRARY_FRESH_MS,
  });
  const categories = filterPromptTree(library.data ?? [], keyword);

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={SIDE_TITLES[side]}
      size={drawerSize}
      extra={
        <Button type="primary" onClick={onClose}>
          完成
        </Button>
      }
    >
      <Input.Search
        allowClear
        placeholder="搜索中文或英文"
        value={keyword}
        onChange={(event) => setKeyword(event.target.value)}
        className="hf-ta-gap-bottom"
      />
      {library.isPending ? (
        <Skeleton active />
      ) : categories.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有匹配的提示词" />
      ) : (
        <Collapse
          size="small"
          defaultActiveKey={categories.slice(0, 1).map((category) => category.key)}
          {...(keyword.trim() ? { activeKey: categories.map((category) => category.key) } : {})}
          items={categories.map((category) => ({
            key: category.key,
            label: category.name,
            children: (category.children ?? []).map((sub) =>
              sub.kind === 'word' ? null : (
                <div key={sub.key} className="hf-ta-word-group">
                  <Typography.Text type="secondary">{sub.name}</Typography.Text>
                  <WordTags
                    words={(sub.children ?? []).filter((child) => child.kind === 'word')}
                    side={side}
                    group={group}
                    onToggle={onToggle}
                  />
                </div>
              ),
            ),
          }))}
        />
      )}
    </Drawer>
  );
}
