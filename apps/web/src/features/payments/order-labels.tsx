import { ORDER_CLOSE_REASON_LABELS, ORDER_STATUS_LABELS, type Order, type OrderStatus } from '@huafang/contracts';
import { Tag } from 'antd';

const STATUS_COLORS: Record<OrderStatus, string> = {
  pending: 'processing',
  paid: 'success',
  partially_refunded: 'warning',
  refunded: 'default',
  closed: 'default',
};

/** 待支付 / 已支付 / 部分退款 / 已退款 / 已关闭（已取消）as a coloured tag. */
export function OrderStatusTag({ order }: { order: Pick<Order, 'status' | 'closeReason'> }) {
  const reason =
    order.status === 'closed' && order.closeReason ? `（${ORDER_CLOSE_REASON_LABELS[order.closeReason]}）` : '';
  return (
    <Tag color={STATUS_COLORS[order.status]}>
      {ORDER_STATUS_LABELS[order.status]}
      {reason}
    </Tag>
  );
}
