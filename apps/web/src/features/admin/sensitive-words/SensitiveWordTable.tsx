import type { SensitiveWord } from '@huafang/contracts';
import { Table, type TableColumnsType, type TableProps, Tag } from 'antd';
import { ConfirmAction } from '../../../common/ConfirmAction';
import { formatDateTime } from '../../../common/format-date-time';

interface SensitiveWordTableProps {
  tableProps: TableProps<SensitiveWord>;
  emptyText: string;
  selected: string[];
  onSelect: (ids: string[]) => void;
  onDelete: (ids: string[]) => Promise<void>;
}

function columns(onDelete: (ids: string[]) => Promise<void>): TableColumnsType<SensitiveWord> {
  return [
    { title: '敏感词', dataIndex: 'word', className: 'hf-words-word' },
    { title: '分类', dataIndex: 'category', width: 140, render: (category: string) => <Tag>{category}</Tag> },
    // Phones leave the date out, so word, category and 删除 fit the screen without scrolling sideways.
    { title: '添加时间', dataIndex: 'createdAt', width: 170, render: formatDateTime, responsive: ['md'] },
    {
      title: '操作',
      key: 'actions',
      width: 80,
      render: (_value, item) => (
        <ConfirmAction
          title={`删除敏感词「${item.word}」？`}
          description="删除后，含这个词的文字不再被拦下"
          onConfirm={() => onDelete([item.id])}
        />
      ),
    },
  ];
}

/** The words of one page, newest first; rows can be ticked for 删除所选. */
export function SensitiveWordTable({ tableProps, emptyText, selected, onSelect, onDelete }: SensitiveWordTableProps) {
  return (
    <Table<SensitiveWord>
      rowKey="id"
      className="hf-words-table"
      columns={columns(onDelete)}
      locale={{ emptyText }}
      rowSelection={{
        selectedRowKeys: selected,
        onChange: (keys) => onSelect(keys.map(String)),
        // antd names these in English; the word itself stays out of the name (it is content, not a label).
        getTitleCheckboxProps: () => ({ 'aria-label': '全选本页' }),
        getCheckboxProps: () => ({ 'aria-label': '选择此行' }),
      }}
      {...tableProps}
    />
  );
}
