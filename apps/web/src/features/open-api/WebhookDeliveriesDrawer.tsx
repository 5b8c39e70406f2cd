import { ReloadOutlined } from '@ant-design/icons';
import type { PageQuery, WebhookDelivery, WebhookEndpoint } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Drawer, Result, Table, type TableColumnsType, Tag, Typography } from 'antd';
import { useState } from 'react';
import { inDisplayZone } from '../../common/dayjs';
import { useDrawerSize } from '../../common/use-screen';
import { webhookQueries } from '../../services/webhooks';
import { attemptSummary, DELIVERY_STATUS, eventLabel } from './open-api-labels';

const PAGE_SIZE = 10;

const time = (value: string) => inDisplayZone(value).format('YYYY-MM-DD HH:mm:ss');

const COLUMNS: TableColumnsType<WebhookDelivery> = [
  {
    title: '事件',
    dataIndex: 'eventType',
    render: (type: string) => <span className="hf-oa-nowrap">{eventLabel(type)}</span>,
  },
  {
    title: '状态',
    dataIndex: 'status',
    render: (status: WebhookDelivery['status'], delivery) => (
      <span className="hf-oa-status">
        <Tag color={DELIVERY_STATUS[status].color}>{DELIVERY_STATUS[status].label}</Tag>
        {delivery.nextAttemptAt && <span className="hf-oa-meta">下次 {time(delivery.nextAttemptAt)}</span>}
      </span>
    ),
  },
  { title: '尝试次数', dataIndex: 'attempts', align: 'right' },
  {
    title: '时间',
    dataIndex: 'createdAt',
    // On a phone the date and the time take a line each, never breaking inside either.
    render: (createdAt: string) => (
      <>
        <span className="hf-oa-nowrap">{inDisplayZone(createdAt).format('YYYY-MM-DD')}</span>{' '}
        <span className="hf-oa-nowrap">{inDisplayZone(createdAt).format('HH:mm:ss')}</span>
      </>
    ),
  },
];

/** Every try of one delivery: when, how the endpoint answered (or why not), and the start of its answer. */
function AttemptLog({ delivery }: { delivery: WebhookDelivery }) {
  if (delivery.attemptLog.length === 0) return <span className="hf-oa-meta">还没有发送</span>;
  return (
    <ol className="hf-oa-attempts" aria-label="每次尝试">
      {delivery.attemptLog.map((attempt) => (
        <li key={attempt.attempt}>
          <span>
            第 {attempt.attempt} 次 · {time(attempt.at)} · {attemptSummary(attempt)}
          </span>
          {attempt.responseExcerpt && (
            <Typography.Text code className="hf-oa-code">
              {attempt.responseExcerpt}
            </Typography.Text>
          )}
        </li>
      ))}
      <li className="hf-oa-meta">消息编号 {delivery.eventId}（每次重试相同，接收方可据此去重）</li>
    </ol>
  );
}

interface WebhookDeliveriesDrawerProps {
  /** The endpoint whose log shows; the drawer is closed while null. */
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
}

/** 投递记录: one endpoint's deliveries, newest first, paged, each with its tries. */
export function WebhookDeliveriesDrawer({ endpoint, onClose }: WebhookDeliveriesDrawerProps) {
  const size = useDrawerSize(720);
  // Kept while the drawer slides away, so its content does not vanish first.
  const [shown, setShown] = useState<WebhookEndpoint | null>(endpoint);
  const [page, setPage] = useState<PageQuery>({ current: 1, pageSize: PAGE_SIZE });
  if (endpoint && endpoint.id !== shown?.id) {
    setShown(endpoint);
    setPage({ current: 1, pageSize: PAGE_SIZE });
  }
  const deliveries = useQuery({
    ...webhookQueries.deliveries(shown?.id ?? '', page),
    enabled: Boolean(endpoint),
  });

  return (
    <Drawer
      title="投递记录"
      open={Boolean(endpoint)}
      onClose={onClose}
      size={size}
      className="hf-oa-deliveries"
      extra={
        <Button icon={<ReloadOutlined />} onClick={() => void deliveries.refetch()} loading={deliveries.isFetching}>
          刷新
        </Button>
      }
    >
      {shown && (
        <Typography.Paragraph className="hf-oa-meta hf-oa-break">发往 {shown.url}，最新的在前。</Typography.Paragraph>
      )}
      {deliveries.isError && !deliveries.data ? (
        <Result
          status="warning"
          title="投递记录加载失败"
          extra={<Button onClick={() => void deliveries.refetch()}>重试</Button>}
        />
      ) : (
        <Table<WebhookDelivery>
          rowKey="id"
          size="small"
          columns={COLUMNS}
          dataSource={deliveries.data?.list}
          loading={deliveries.isFetching}
          expandable={{ expandedRowRender: (delivery) => <AttemptLog delivery={delivery} /> }}
          locale={{ emptyText: '还没有投递记录，可以先点“测试发送”' }}
          pagination={{
            current: page.current,
            pageSize: page.pageSize,
            total: deliveries.data?.total ?? 0,
            showTotal: (total) => `共 ${total} 条`,
            onChange: (current, pageSize) => setPage({ current, pageSize }),
            showSizeChanger: false,
          }}
        />
      )}
    </Drawer>
  );
}
