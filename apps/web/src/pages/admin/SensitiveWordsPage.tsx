import { DeleteOutlined, DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { SensitiveWord } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Input, Select } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { PageHead } from '../../components/PageHead';
import { AddWordsDialog } from '../../features/admin/sensitive-words/AddWordsDialog';
import { ImportWordsDialog } from '../../features/admin/sensitive-words/ImportWordsDialog';
import { SensitiveWordTable } from '../../features/admin/sensitive-words/SensitiveWordTable';
import { categoryFilterOptions } from '../../features/admin/sensitive-words/sensitive-word-text';
import { usePagedQuery } from '../../features/admin/use-paged-query';
import { saveBlob } from '../../services/attachment';
import { toast } from '../../services/notices';
import {
  deleteSensitiveWords,
  downloadSensitiveWords,
  fetchSensitiveWords,
  type SensitiveWordFilter,
  sensitiveWordKeys,
  sensitiveWordQueries,
} from '../../services/sensitive-words';
import '../../features/admin/admin-pages.css';
import '../../features/admin/sensitive-words/sensitive-words.css';

type Dialog = 'add' | 'import' | null;

/** 敏感词库: the words every user text is checked against (docs/compliance.md § 内容安全). */
export default function SensitiveWordsPage() {
  const [filter, setFilter] = useState<SensitiveWordFilter>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const queryClient = useQueryClient();
  const categories = useQuery(sensitiveWordQueries.categories());
  const { tableProps, reload } = usePagedQuery<SensitiveWord>(sensitiveWordKeys.list(filter), (page) =>
    fetchSensitiveWords(filter, page),
  );

  const exporting = useMutation({
    mutationFn: async (category: string | undefined) => {
      const { blob, fileName } = await downloadSensitiveWords(category);
      saveBlob(blob, fileName ?? 'sensitive-words.txt');
    },
  });

  function applyFilter(next: SensitiveWordFilter) {
    setFilter(next);
    setSelected([]);
    reload();
  }

  /** After an add or import: the newest words are on page 1. */
  function changed() {
    setDialog(null);
    reload();
    void queryClient.invalidateQueries({ queryKey: sensitiveWordKeys.all });
  }

  async function remove(ids: string[]) {
    try {
      toast(await deleteSensitiveWords(ids), 'success');
    } catch {
      // The request layer has shown why (e.g. 敏感词不存在或已删除).
      return;
    }
    setSelected((current) => current.filter((id) => !ids.includes(id)));
    // A page left empty goes back to page 1; otherwise stay on the page the admin is reading.
    if (ids.length >= (tableProps.dataSource?.length ?? 0)) reload();
    await queryClient.invalidateQueries({ queryKey: sensitiveWordKeys.all });
  }

  const filtered = Boolean(filter.category || filter.keyword);

  return (
    <div className="hf-page">
      <PageHead title="敏感词库">
        <div className="hf-words-head-actions">
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('add')}>
            添加敏感词
          </Button>
          <Button icon={<UploadOutlined />} onClick={() => setDialog('import')}>
            导入
          </Button>
          <Button
            icon={<DownloadOutlined />}
            loading={exporting.isPending}
            onClick={() => exporting.mutate(filter.category)}
          >
            {filter.category ? '导出本分类' : '导出全部'}
          </Button>
        </div>
      </PageHead>
      <div className="hf-panel">
        <div className="hf-words-toolbar">
          <Select
            className="hf-words-category"
            aria-label="按分类筛选"
            placeholder="全部分类"
            allowClear
            loading={categories.isPending}
            options={categoryFilterOptions(categories.data ?? [])}
            value={filter.category}
            onChange={(category: string | undefined) => applyFilter({ ...filter, category })}
          />
          <Input.Search
            className="hf-words-search"
            aria-label="搜索敏感词"
            placeholder="搜索敏感词"
            allowClear
            enterButton="搜索"
            maxLength={50}
            onSearch={(keyword) => applyFilter({ ...filter, keyword: keyword.trim() || undefined })}
          />
          {selected.length > 0 && (
            <ConfirmAction
              title={`删除所选的 ${selected.length} 个敏感词？`}
              description="删除后，含这些词的文字不再被拦下"
              onConfirm={() => remove(selected)}
            >
              <Button danger icon={<DeleteOutlined />}>
                删除所选（{selected.length}）
              </Button>
            </ConfirmAction>
          )}
        </div>
        <SensitiveWordTable
          tableProps={tableProps}
          emptyText={filtered ? '没有找到匹配的敏感词' : '词库是空的：点击“添加敏感词”或“导入”'}
          selected={selected}
          onSelect={setSelected}
          onDelete={remove}
        />
      </div>
      <AddWordsDialog open={dialog === 'add'} onClose={() => setDialog(null)} onAdded={changed} />
      <ImportWordsDialog open={dialog === 'import'} onClose={() => setDialog(null)} onImported={changed} />
    </div>
  );
}
