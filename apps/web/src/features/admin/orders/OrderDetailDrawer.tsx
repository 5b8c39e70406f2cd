import { formatFen, PAYMENT_CHANNEL_LABELS, REFUND_STATUS_LABELS, type RefundResult } from '@huafang/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Descriptions, Drawer, Empty, Skeleton, Table, Timeline, Typography } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../common/format-date-time';
import { LoadFailed } from '../../../common/LoadFailed';
import { useDrawerSize } from '../../../common/use-screen';
import { paymentKeys, paymentQueries } from '../../../services/payments';
import { OrderStatusTag } from '../../payments/order-labels';
import { actionLabel, auditDetailRows } from '../audit/audit-detail';
import { RefundDialog } from './RefundDialog';

const DEVICE_LABELS = { desktop: '电脑', phone: '手机', wechat: '微信内' } as const;
const orDash = (value: string | null | undefined) => value || '—';

function Detail({ orderId, onRefunded }: { orderId: string; onRefunded: () => void }) {
  const query = useQuery(paymentQueries.adminOrder(orderId));
  const queryClient = useQueryClient();
  const { modal } = App.useApp();
  const [refunding, setRefunding] = useState(false);

  if (query.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (query.isError) return <LoadFailed title="订单加载失败" onRetry={() => void query.refetch()} />;
  const detail = query.data;
  const { order } = detail;

  const refunded = (result: RefundResult) => {
    setRefunding(false);
    void queryClient.invalidateQueries({ queryKey: paymentKeys.admin });
    onRefunded();
    if (result.advice) modal.warning({ title: '部分算力未能收回', content: result.advice, okText: '知道了' });
  };

  return (
    <div className="hf-order-detail">
      {order.review && <Alert type="warning" showIcon title="待核查" description={order.review} />}
      <Descriptions
        column={1}
        bordered
        size="small"
        className="hf-audit-descriptions"
        styles={{ label: { width: 110 } }}
        items={[
          { key: 'id', label: '订单号', children: order.id },
          { key: 'status', label: '状态', children: <OrderStatusTag order={order} /> },
          { key: 'plan', label: '套餐', children: `${order.planName} · ${order.credits} 点算力` },
          { key: 'amount', label: '金额', children: formatFen(order.amountFen) },
          { key: 'refunded', label: '已退款', children: formatFen(order.refundedFen) },
          {
            key: 'user',
            label: '用户',
            children: [order.nickname, order.mobile, order.userId].filter(Boolean).join(' · '),
          },
          {
            key: 'channel',
            label: '支付方式',
            children: `${PAYMENT_CHANNEL_LABELS[order.channel]}（${DEVICE_LABELS[order.device]}）`,
          },
          { key: 'tradeNo', label: '渠道交易号', children: orDash(order.tradeNo) },
          { key: 'created', label: '创建时间', children: formatDateTime(order.createdAt) },
          { key: 'paid', label: '支付时间', children: order.paidAt ? formatDateTime(order.paidAt) : '—' },
          { key: 'closed', label: '关闭时间', children: order.closedAt ? formatDateTime(order.closedAt) : '—' },
        ]}
      />
      {detail.refundPreview && (
        <Button danger onClick={() => setRefunding(true)}>
          退款
        </Button>
      )}
      <section aria-label="退款记录">
        <Typography.Title level={5}>退款记录</Typography.Title>
        <Table
          rowKey="id"
          size="small"
          pagination={false}
          scroll={{ x: 'max-content' }}
          dataSource={detail.refunds}
          locale={{ emptyText: '没有退款' }}
          columns={[
            { title: '金额', dataIndex: 'amountFen', render: formatFen },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: keyof typeof REFUND_STATUS_LABELS) => REFUND_STATUS_LABELS[status],
            },
            {
              title: '收回算力',
              key: 'credits',
              render: (_value, refund) =>
                refund.creditsShort > 0
                  ? `${refund.creditsTaken} 点（${refund.creditsShort} 点已用完）`
                  : `${refund.creditsTaken} 点`,
            },
            { title: '原因', dataIndex: 'reason' },
            { title: '时间', dataIndex: 'createdAt', render: formatDateTime },
          ]}
        />
      </section>
      <section aria-label="渠道数据">
        <Typography.Title level={5}>渠道数据</Typography.Title>
        {detail.channelData ? (
          <pre className="hf-audit-pre">{JSON.stringify(detail.channelData, null, 2)}</pre>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="渠道尚未返回数据" />
        )}
      </section>
      <section aria-label="变更记录">
        <Typography.Title level={5}>变更记录</Typography.Title>
        {detail.audit.length > 0 ? (
          <Timeline
            items={detail.audit.map((entry) => ({
              key: entry.id,
              content: (
                <>
                  <div>
                    <strong>{actionLabel(entry)}</strong> <span className="hf-muted">{formatDateTime(entry.at)}</span>
                  </div>
                  {auditDetailRows(entry).map((row) => (
                    <div key={row.key} className="hf-order-audit-line">
                      {row.label}：{row.block ? <pre className="hf-audit-pre">{row.value}</pre> : row.value}
                    </div>
                  ))}
                </>
              ),
            }))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="没有变更记录" />
        )}
      </section>
      <RefundDialog detail={detail} open={refunding} onClose={() => setRefunding(false)} onRefunded={refunded} />
    </div>
  );
}

/** 订单详情: the order, the channel's data, its refunds (and 退款) and the audit of every change. */
export function OrderDetailDrawer({
  orderId,
  onClose,
  onRefunded,
}: {
  orderId: string | null;
  onClose: () => void;
  onRefunded: () => void;
}) {
  const size = useDrawerSize(640);
  // The last order shown stays while the drawer slides away; then it goes, so opening it again reads it afresh.
  const [shown, setShown] = useState(orderId);
  if (orderId && orderId !== shown) setShown(orderId);
  return (
    <Drawer title="订单详情" open={orderId !== null} onClose={onClose} size={size} destroyOnHidden>
      {shown && <Detail key={shown} orderId={shown} onRefunded={onRefunded} />}
    </Drawer>
  );
}
