import { MSG, type PromptWord } from '@huafang/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Table, type TableColumnsType, Tag } from 'antd';
import { editDeleteColumn } from '../../common/edit-delete-column';
import { toast } from '../../services/notices';
import {
  deletePromptWord,
  fetchPromptList,
  HELP_URL_FLAG,
  type PromptVariant,
  promptKeys,
} from '../../services/prompt';
import { isRequestError } from '../../services/request-error';
import { usePagedQuery } from '../admin/use-paged-query';

interface PromptWordsTableProps {
  variant: PromptVariant;
  categoryId: string | null;
  keyword: string;
  onEdit: (word: PromptWord) => void;
}

/** The words of the chosen category (all when none), searchable; 编辑 and 删除 per row. */
export function PromptWordsTable({ variant, categoryId, keyword, onEdit }: PromptWordsTableProps) {
  const queryClient = useQueryClient();
  const { tableProps } = usePagedQuery(promptKeys.admin(variant, categoryId, keyword), (page) =>
    fetchPromptList(variant, {
      helpUrlFlag: HELP_URL_FLAG.all,
      categoryId: categoryId ?? undefined,
      keyword: keyword || undefined,
      ...page,
    }),
  );

  async function remove(word: PromptWord) {
    try {
      await deletePromptWord(word.id);
    } catch (error) {
      if (isRequestError(error) && error.notified) return;
      throw error;
    }
    toast(MSG.deleted, 'success');
    await queryClient.invalidateQueries({ queryKey: promptKeys.all });
  }

  const columns: TableColumnsType<PromptWord> = [
    { title: '中文标签', dataIndex: 'label', width: 180 },
    { title: '英文提示词', dataIndex: 'text' },
    {
      title: '常用',
      dataIndex: 'featured',
      width: 90,
      render: (featured: boolean) => (featured ? <Tag color="purple">常用</Tag> : <Tag>—</Tag>),
    },
    editDeleteColumn(140, (word) => ({
      onEdit: () => onEdit(word),
      deleteTitle: `确定删除「${word.label}」吗？`,
      deleteDescription: '删除后创作页的词库里将不再出现这个词',
      onDelete: () => remove(word),
    })),
  ];

  return (
    <Table<PromptWord>
      rowKey="id"
      size="middle"
      columns={columns}
      locale={{ emptyText: keyword ? `没有找到与「${keyword}」相关的提示词` : '这个分类下还没有提示词' }}
      {...tableProps}
    />
  );
}
