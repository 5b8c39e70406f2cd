import { PlusOutlined } from '@ant-design/icons';
import { Button, Table, type TableColumnsType } from 'antd';
import type { ReactNode } from 'react';
import { PageHead } from '../../components/PageHead';
import './admin-pages.css';

interface AdminListPageProps<T> {
  title: string;
  /** The head's button that opens the dialog for a new item. */
  addLabel: string;
  onAdd: () => void;
  columns: TableColumnsType<T>;
  rows: T[] | undefined;
  loading: boolean;
  emptyText: string;
  /** The create/edit dialog. */
  children: ReactNode;
}

/** An admin list that fits one page (推理后端, 套餐配置): a head with 添加, the table, and its dialog. */
export function AdminListPage<T extends { id: string }>({
  title,
  addLabel,
  onAdd,
  columns,
  rows,
  loading,
  emptyText,
  children,
}: AdminListPageProps<T>) {
  return (
    <div className="hf-page">
      <PageHead title={title}>
        <Button type="primary" icon={<PlusOutlined />} onClick={onAdd}>
          {addLabel}
        </Button>
      </PageHead>
      <div className="hf-panel">
        <Table<T>
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={loading}
          pagination={false}
          locale={{ emptyText }}
        />
      </div>
      {children}
    </div>
  );
}
