import { formatFen, type OrderWithBalance, PAYMENT_CHANNEL_LABELS } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Result, Skeleton } from 'antd';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { LoadFailed } from '../../common/LoadFailed';
import { checkOrder, fetchOrder, paymentKeys } from '../../services/payments';
import { storeKeys } from '../../services/store';
import { useHeaderCreditsSync } from '../store/use-header-credits';
import { useCountdown } from './use-countdown';
import './payments.css';

/** How often a pending order is read while the channel's notification is on its way. */
const POLL_MS = 3000;

function PendingResult({
  data,
  checking,
  onCheck,
}: {
  data: OrderWithBalance;
  checking: boolean;
  onCheck: () => void;
}) {
  const navigate = useNavigate();
  const countdown = useCountdown(data.order.expiresAt);
  return (
    <Result
      status="info"
      title="等待支付结果"
      subTitle={
        countdown.over
          ? '订单已超时；如果已经付款，请点击“我已支付”查询'
          : `${PAYMENT_CHANNEL_LABELS[data.order.channel]}支付 ${formatFen(data.order.amountFen)}，剩余 ${countdown.text}。支付完成后本页自动更新`
      }
      extra={[
        <Button key="check" type="primary" loading={checking} onClick={onCheck}>
          我已支付
        </Button>,
        <Button key="orders" onClick={() => void navigate('/account/orders')}>
          我的订单
        </Button>,
      ]}
    />
  );
}

/**
 * Where the channel's page sends the buyer back (and 我已支付 leads): the server is asked to query the channel once
 * on arrival, then the order is read every few seconds until it is no longer pending; a paid one shows the credits
 * it brought and the new balance.
 */
export function PayResult({ orderId }: { orderId: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const key = paymentKeys.order(orderId);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchOrder(orderId),
    refetchInterval: (q) => (q.state.data?.order.status === 'pending' ? POLL_MS : false),
  });
  const check = useMutation({
    mutationFn: () => checkOrder(orderId),
    onSuccess: (data) => queryClient.setQueryData(key, data),
  });
  // The notification may have been lost: on arrival the server asks the channel (what 我已支付 does).
  const { mutate: askChannel } = check;
  const asked = useRef(false);
  useEffect(() => {
    if (asked.current) return;
    asked.current = true;
    askChannel();
  }, [askChannel]);
  const data = query.data;
  const paid = data && data.order.status !== 'pending' && data.order.status !== 'closed';
  useHeaderCreditsSync(paid ? data.credits : undefined);
  useEffect(() => {
    if (paid) void queryClient.invalidateQueries({ queryKey: storeKeys.store });
  }, [paid, queryClient]);

  if (query.isError && !data) return <LoadFailed title="订单加载失败" onRetry={() => void query.refetch()} />;
  if (!data) return <Skeleton active paragraph={{ rows: 4 }} />;
  const { order, credits } = data;

  if (order.status === 'pending') {
    return <PendingResult data={data} checking={check.isPending} onCheck={() => check.mutate()} />;
  }
  if (order.status === 'closed') {
    return (
      <Result
        status="warning"
        title={order.closeReason === 'cancelled' ? '订单已取消' : '订单已超时关闭'}
        subTitle={`订单号 ${order.id}。如已扣款，请通过帮助与反馈联系我们`}
        extra={
          <Button type="primary" onClick={() => void navigate('/account/orders')}>
            我的订单
          </Button>
        }
      />
    );
  }
  if (order.status === 'refunded' || order.status === 'partially_refunded') {
    return (
      <Result
        status="info"
        title={order.status === 'refunded' ? '订单已退款' : '订单已部分退款'}
        subTitle={`${order.planName} · 实付 ${formatFen(order.amountFen)} · 已退款 ${formatFen(order.refundedFen)}。当前算力 ${credits.toLocaleString('zh-CN')} 点`}
        extra={
          <Button type="primary" onClick={() => void navigate('/account/orders')}>
            我的订单
          </Button>
        }
      />
    );
  }
  return (
    <Result
      status="success"
      title="支付成功"
      subTitle={
        <>
          <div>
            {order.planName} · {formatFen(order.amountFen)} · 已到账 {order.credits.toLocaleString('zh-CN')} 点算力
          </div>
          <div className="hf-pay-result-balance">
            当前算力 <strong>{credits.toLocaleString('zh-CN')}</strong> 点
          </div>
        </>
      }
      extra={[
        <Button key="draw" type="primary" onClick={() => void navigate('/draw')}>
          去创作
        </Button>,
        <Button key="orders" onClick={() => void navigate('/account/orders')}>
          我的订单
        </Button>,
      ]}
    />
  );
}
