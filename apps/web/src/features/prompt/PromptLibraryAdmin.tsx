import { PlusOutlined } from '@ant-design/icons';
import { Button, Input, Segmented, Tooltip } from 'antd';
import { useState } from 'react';
import type { PromptVariant } from '../../services/prompt';
import { PromptCategoryTree } from './PromptCategoryTree';
import { PromptWordDialog, type WordEditing } from './PromptWordDialog';
import { PromptWordsTable } from './PromptWordsTable';
import './prompt-library.css';

/** 提示词库 of /model: the positive or negative tree on the left, the chosen category's words on the right. */
export function PromptLibraryAdmin() {
  const [variant, setVariant] = useState<PromptVariant>('positive');
  const [category, setCategory] = useState<{ id: string; name: string } | null>(null);
  const [keyword, setKeyword] = useState('');
  const [editing, setEditing] = useState<WordEditing | null>(null);

  const switchVariant = (next: PromptVariant) => {
    setVariant(next);
    setCategory(null);
  };

  return (
    <div className="hf-library-admin">
      <aside className="hf-library-tree">
        <Segmented<PromptVariant>
          block
          value={variant}
          onChange={switchVariant}
          options={[
            { value: 'positive', label: '正向词库' },
            { value: 'negative', label: '反向词库' },
          ]}
        />
        <PromptCategoryTree variant={variant} selectedId={category?.id ?? null} onSelect={setCategory} />
      </aside>
      <div className="hf-library-words">
        <div className="hf-library-toolbar">
          <span className="hf-library-heading">{category?.name ?? '全部提示词'}</span>
          <Input.Search
            placeholder="搜索中文标签或英文"
            allowClear
            onSearch={(value) => setKeyword(value.trim())}
            className="hf-library-search-box"
          />
          <Tooltip title={category ? undefined : '先在左侧选择一个分类'}>
            <Button
              type="primary"
              icon={<PlusOutlined />}
              disabled={!category}
              onClick={() => category && setEditing({ categoryId: category.id })}
            >
              新增
            </Button>
          </Tooltip>
        </div>
        <PromptWordsTable
          key={`${variant}-${category?.id ?? 'all'}-${keyword}`}
          variant={variant}
          categoryId={category?.id ?? null}
          keyword={keyword}
          onEdit={(word) => setEditing({ word })}
        />
      </div>
      <PromptWordDialog editing={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
