import { formatFen, type Order, PAYMENT_CHANNEL_LABELS } from '@huafang/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, List, Modal, Skeleton } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import { LoadFailed } from '../../common/LoadFailed';
import { listPagination } from '../../common/list-pagination';
import { SubmitError } from '../../common/SubmitError';
import { toast } from '../../services/notices';
import { cancelOrder, paymentKeys, paymentQueries } from '../../services/payments';
import { useSubmit } from '../account/use-submit';
import { openComboStore } from '../store/combo-store-state';
import { OrderStatusTag } from './order-labels';
import { resultPath } from './pay-state';
import { QrPayPanel } from './QrPayPanel';
import { useCheckout } from './use-checkout';
import { usePayDevice } from './use-pay-device';
import './payments.css';

const PAGE_SIZE = 10;

interface OrderRowProps {
  order: Order;
  paying: boolean;
  onPay: (order: Order) => void;
  onCancel: (order: Order) => Promise<void>;
}

function OrderRow({ order, paying, onPay, onCancel }: OrderRowProps) {
  const navigate = useNavigate();
  const pending = order.status === 'pending' && Date.parse(order.expiresAt) > Date.now();
  return (
    <List.Item className="hf-order-row" aria-label={`订单 ${order.id}`}>
      <div className="hf-order-main">
        <strong>{order.planName}</strong>
        <span>
          {order.credits.toLocaleString('zh-CN')} 点算力
          {order.validityDays !== null && ` · 有效期 ${order.validityDays} 天`} ·{' '}
          {PAYMENT_CHANNEL_LABELS[order.channel]}
          {order.refundedFen > 0 && ` · 已退款 ${formatFen(order.refundedFen)}`}
        </span>
        <span className="hf-order-id">订单号 {order.id}</span>
        <time className="hf-order-time" dateTime={order.createdAt}>
          {formatDateTime(order.createdAt)}
        </time>
      </div>
      <div className="hf-order-side">
        <span className="hf-order-amount">{formatFen(order.amountFen)}</span>
        <OrderStatusTag order={order} />
        <div className="hf-order-actions">
          {pending ? (
            <>
              <Button size="small" type="primary" loading={paying} onClick={() => onPay(order)}>
                继续支付
              </Button>
              <ConfirmAction
                title="取消这笔订单？"
                description="取消后不能再支付，需要时请重新下单"
                okText="取消订单"
                onConfirm={() => onCancel(order)}
              >
                <Button size="small">取消订单</Button>
              </ConfirmAction>
            </>
          ) : (
            <Button size="small" type="link" onClick={() => void navigate(resultPath(order.id))}>
              查看
            </Button>
          )}
        </div>
      </div>
    </List.Item>
  );
}

/** 我的订单: every order of the user, newest first, with its status; a pending one can be paid again or cancelled. */
export function MyOrderList() {
  const [current, setCurrent] = useState(1);
  const orders = useQuery(paymentQueries.mine(current, PAGE_SIZE));
  const queryClient = useQueryClient();
  const device = usePayDevice();
  const checkout = useCheckout();
  const cancel = useSubmit();
  const [payingId, setPayingId] = useState<string | null>(null);

  if (orders.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (orders.isError) return <LoadFailed title="订单加载失败" onRetry={() => void orders.refetch()} />;
  const page = orders.data;

  const pay = (order: Order) => {
    setPayingId(order.id);
    void checkout.pay({ orderId: order.id }, device).finally(() => setPayingId(null));
  };
  const cancelOne = (order: Order) =>
    cancel.submit(async () => {
      await cancelOrder(order.id);
      toast('订单已取消', 'success');
      await queryClient.invalidateQueries({ queryKey: paymentKeys.mine });
    });

  return (
    <div className="hf-my-orders">
      <SubmitError error={checkout.error ?? cancel.error} />
      <section aria-label="订单列表">
        <List
          dataSource={page.list}
          rowKey="id"
          loading={orders.isFetching && orders.isPlaceholderData}
          locale={{
            emptyText: (
              <Empty description="还没有订单">
                <Button type="primary" onClick={openComboStore}>
                  去套餐商店
                </Button>
              </Empty>
            ),
          }}
          renderItem={(order) => (
            <OrderRow order={order} paying={payingId === order.id} onPay={pay} onCancel={cancelOne} />
          )}
          pagination={listPagination(current, PAGE_SIZE, page.total, setCurrent)}
        />
      </section>
      <Modal open={checkout.qr !== null} title="扫码支付" footer={null} onCancel={checkout.closeQr} destroyOnHidden>
        {checkout.qr && <QrPayPanel order={checkout.qr.order} codeUrl={checkout.qr.codeUrl} onDone={checkout.done} />}
      </Modal>
    </div>
  );
}
