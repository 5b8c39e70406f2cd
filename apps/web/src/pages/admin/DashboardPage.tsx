import type { Dashboard } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, Card, Segmented, Skeleton, Statistic, Table, Tag } from 'antd';
import { useState } from 'react';
import { LoadFailed } from '../../common/LoadFailed';
import { PageHead } from '../../components/PageHead';
import { DayBarChart } from '../../features/dashboard/DayBarChart';
import { adminQueries } from '../../services/admin';

const WINDOWS = [
  { label: '近 7 天', value: 7 },
  { label: '近 14 天', value: 14 },
  { label: '近 30 天', value: 30 },
];
/** The queue and the backends change by the second; the page follows them without a reload. */
const REFRESH_MS = 15_000;

/** Revenue in fen as yuan with two decimals (a day's average may fall between two fen). */
const yuan = (fen: number) => (Math.round(fen) / 100).toFixed(2);

function Charts({ data }: { data: Dashboard }) {
  const series = (pick: (day: Dashboard['days'][number]) => number) =>
    data.days.map((day) => ({ date: day.date, value: pick(day) }));
  return (
    <div className="hf-dashboard-charts">
      <Card>
        <DayBarChart title="每日生成次数" unit="次" days={series((day) => day.generations)} />
      </Card>
      <Card>
        <DayBarChart title="每日出图张数" unit="张" days={series((day) => day.images)} />
      </Card>
      <Card>
        <DayBarChart title="每日活跃用户" unit="人" days={series((day) => day.activeUsers)} />
      </Card>
      <Card>
        <DayBarChart title="每日收入" unit="元" days={series((day) => day.revenueFen)} format={yuan} />
      </Card>
      <Card>
        <DayBarChart title="每日支付订单" unit="笔" days={series((day) => day.paidOrders)} />
      </Card>
    </div>
  );
}

/** 数据看板: totals, the queue now, generations, active users, revenue and paid orders per day, and the backends' state. */
export default function DashboardPage() {
  const [days, setDays] = useState(14);
  const query = useQuery({ ...adminQueries.dashboard(days), refetchInterval: REFRESH_MS });

  return (
    <div className="hf-page">
      <PageHead title="数据看板">
        <Segmented options={WINDOWS} value={days} onChange={(value) => setDays(Number(value))} />
      </PageHead>
      {query.isError ? (
        <LoadFailed title="数据加载失败" onRetry={() => query.refetch()} />
      ) : !query.data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <div className="hf-dashboard-stats">
            <Card>
              <Statistic title="用户总数" value={query.data.totals.users} />
            </Card>
            <Card>
              <Statistic title="作品总数" value={query.data.totals.works} />
            </Card>
            <Card>
              <Statistic title="灵感广场作品" value={query.data.totals.publicWorks} />
            </Card>
            <Card>
              <Statistic title="排队中" value={query.data.queue.waiting} suffix="个" />
            </Card>
            <Card>
              <Statistic title="生成中" value={query.data.queue.running} suffix="个" />
            </Card>
          </div>
          <Charts data={query.data} />
          <Card title="推理后端">
            <Table
              rowKey="name"
              size="small"
              pagination={false}
              dataSource={query.data.backends}
              columns={[
                { title: '名称', dataIndex: 'name' },
                {
                  title: '状态',
                  dataIndex: 'healthy',
                  render: (healthy: boolean) => (
                    <Badge status={healthy ? 'success' : 'error'} text={healthy ? '正常' : '异常'} />
                  ),
                },
                {
                  title: '当前',
                  dataIndex: 'busy',
                  render: (busy: boolean) => (busy ? <Tag color="processing">生成中</Tag> : <Tag>空闲</Tag>),
                },
              ]}
            />
          </Card>
        </>
      )}
    </div>
  );
}
