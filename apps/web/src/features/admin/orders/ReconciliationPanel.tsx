import { PAYMENT_CHANNEL_LABELS, RECONCILIATION_KIND_LABELS, type ReconciliationMismatch } from '@huafang/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Result, Skeleton, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { isAfterDisplayToday } from '../../../common/dayjs';
import { formatDateTime } from '../../../common/format-date-time';
import { LoadFailed } from '../../../common/LoadFailed';
import { paymentKeys, paymentQueries, runReconciliation } from '../../../services/payments';
import { useSubmit } from '../../account/use-submit';

/**
 * 对账: the last reconciliation of a day (yesterday unless the admin picks another) and every order on which we and
 * the channel disagree; 重新对账 runs it now. On a correct day the list is empty.
 */
export function ReconciliationPanel({ onOpenOrder }: { onOpenOrder: (orderId: string) => void }) {
  const [day, setDay] = useState<Dayjs | null>(null);
  const date = day ? day.format('YYYY-MM-DD') : undefined;
  const query = useQuery(paymentQueries.reconciliation(date));
  const queryClient = useQueryClient();
  const { submit, submitting } = useSubmit();

  const run = () =>
    submit(async () => {
      const result = await runReconciliation(date);
      queryClient.setQueryData(paymentKeys.reconciliation(date), result);
    });

  return (
    <section aria-label="对账结果">
      <div className="hf-audit-actions">
        <DatePicker
          value={day}
          onChange={setDay}
          placeholder="默认昨天"
          aria-label="对账日期"
          disabledDate={isAfterDisplayToday}
        />
        <Button type="primary" loading={submitting} onClick={() => void run()}>
          重新对账
        </Button>
      </div>
      {query.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : query.isError ? (
        <LoadFailed title="对账结果加载失败" onRetry={() => void query.refetch()} />
      ) : !query.data.ranAt ? (
        <Result status="info" title={`${query.data.date} 尚未对账`} subTitle="每天自动对账一次，也可以点击“重新对账”" />
      ) : query.data.mismatches.length === 0 ? (
        <Alert
          type="success"
          showIcon
          title={`${query.data.date} 对账一致`}
          description={`共核对 ${query.data.checked} 笔订单，对账时间 ${formatDateTime(query.data.ranAt)}`}
        />
      ) : (
        <>
          <Alert
            type="error"
            showIcon
            title={`${query.data.date} 有 ${query.data.mismatches.length} 笔订单对不上`}
            description={`共核对 ${query.data.checked} 笔订单，对账时间 ${formatDateTime(query.data.ranAt)}`}
          />
          <Table<ReconciliationMismatch>
            rowKey={(row) => `${row.orderId}-${row.kind}`}
            size="small"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={query.data.mismatches}
            columns={[
              {
                title: '订单号',
                dataIndex: 'orderId',
                render: (orderId: string) => (
                  <Button type="link" size="small" onClick={() => onOpenOrder(orderId)}>
                    {orderId}
                  </Button>
                ),
              },
              {
                title: '支付方式',
                dataIndex: 'channel',
                render: (channel: keyof typeof PAYMENT_CHANNEL_LABELS) => PAYMENT_CHANNEL_LABELS[channel],
              },
              {
                title: '问题',
                dataIndex: 'kind',
                render: (kind: keyof typeof RECONCILIATION_KIND_LABELS) => (
                  <Tag color="error">{RECONCILIATION_KIND_LABELS[kind]}</Tag>
                ),
              },
              { title: '说明', dataIndex: 'detail' },
            ]}
          />
        </>
      )}
    </section>
  );
}
