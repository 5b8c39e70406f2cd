import { Space, type TableColumnType } from 'antd';
import { EditDeleteActions, type EditDeleteActionsProps } from './EditDeleteActions';

/** The 操作 column of an admin table whose rows are only edited and deleted. */
export function editDeleteColumn<Row>(
  width: number,
  actionsOf: (row: Row) => EditDeleteActionsProps,
): TableColumnType<Row> {
  return {
    title: '操作',
    key: 'actions',
    width,
    render: (_value, row) => (
      <Space size={0}>
        <EditDeleteActions {...actionsOf(row)} />
      </Space>
    ),
  };
}
