import { type AdminOrder, formatFen, PAYMENT_CHANNEL_LABELS } from '@huafang/contracts';
import { Button, Table, type TableColumnsType, type TableProps, Tooltip } from 'antd';
import { formatDateTime } from '../../../common/format-date-time';
import { OrderStatusTag } from '../../payments/order-labels';

function columns(onShow: (order: AdminOrder) => void): TableColumnsType<AdminOrder> {
  return [
    {
      title: '订单号',
      dataIndex: 'id',
      render: (id: string, order) => (
        <Button type="link" size="small" onClick={() => onShow(order)} aria-label={`订单详情 ${id}`}>
          {id}
        </Button>
      ),
    },
    {
      title: '用户',
      key: 'user',
      render: (_value, order) => order.nickname || order.mobile || order.userId,
    },
    { title: '套餐', dataIndex: 'planName' },
    { title: '金额', dataIndex: 'amountFen', align: 'right', render: formatFen },
    {
      title: '支付方式',
      dataIndex: 'channel',
      render: (channel: AdminOrder['channel']) => PAYMENT_CHANNEL_LABELS[channel],
    },
    {
      title: '状态',
      key: 'status',
      render: (_value, order) =>
        order.review ? (
          <Tooltip title={order.review}>
            <span>
              <OrderStatusTag order={order} />
              <span className="hf-order-review">待核查</span>
            </span>
          </Tooltip>
        ) : (
          <OrderStatusTag order={order} />
        ),
    },
    { title: '创建时间', dataIndex: 'createdAt', className: 'hf-audit-nowrap', render: formatDateTime },
  ];
}

/** The orders of 订单管理; the order number opens its detail. Scrolls inside itself on a phone. */
export function OrderTable({
  tableProps,
  emptyText,
  onShow,
}: {
  tableProps: TableProps<AdminOrder>;
  emptyText: string;
  onShow: (order: AdminOrder) => void;
}) {
  return (
    <Table<AdminOrder>
      {...tableProps}
      rowKey="id"
      size="small"
      scroll={{ x: 'max-content' }}
      columns={columns(onShow)}
      locale={{ emptyText }}
    />
  );
}
