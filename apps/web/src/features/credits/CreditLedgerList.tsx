import { CREDIT_REASON_LABELS, type CreditLedgerEntry } from '@huafang/contracts';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, List, Skeleton, Statistic } from 'antd';
import { useState } from 'react';
import { formatDate, formatDateTime } from '../../common/format-date-time';
import { LoadFailed } from '../../common/LoadFailed';
import { listPagination } from '../../common/list-pagination';
import { creditQueries } from '../../services/credits';
import { openComboStore } from '../store/combo-store-state';
import './credits.css';

const PAGE_SIZE = 20;

/** "+50" or "-3": gains in green, spending in the text colour. */
function Delta({ value }: { value: number }) {
  return (
    <span className={value > 0 ? 'hf-credit-delta hf-credit-gain' : 'hf-credit-delta'}>
      {value > 0 ? `+${value}` : value}
    </span>
  );
}

function LedgerRow({ entry }: { entry: CreditLedgerEntry }) {
  return (
    <List.Item className="hf-credit-row">
      <div className="hf-credit-main">
        <strong>{CREDIT_REASON_LABELS[entry.reason]}</strong>
        {entry.detail ? <span className="hf-credit-detail">{entry.detail}</span> : null}
        <time className="hf-credit-time" dateTime={entry.createdAt}>
          {formatDateTime(entry.createdAt)}
        </time>
      </div>
      <div className="hf-credit-figures">
        <Delta value={entry.delta} />
        <span className="hf-credit-balance">余额 {entry.balance}</span>
      </div>
    </List.Item>
  );
}

/**
 * 算力明细: the balance now (with the plan credits that expire next), 购买套餐, and every change with its reason,
 * newest first, a page at a time.
 */
export function CreditLedgerList() {
  const [current, setCurrent] = useState(1);
  const ledger = useQuery(creditQueries.ledger(current, PAGE_SIZE));

  if (ledger.isPending) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (ledger.isError) return <LoadFailed title="算力明细加载失败" onRetry={() => void ledger.refetch()} />;
  const page = ledger.data;

  return (
    <div className="hf-credit-ledger">
      <div className="hf-credit-summary">
        <div>
          <Statistic title="当前算力" value={page.credits} suffix="点" />
          {page.expiring && (
            <div className="hf-credit-expiring">
              {page.expiring.credits} 算力将于 {formatDate(page.expiring.expiresAt)} 过期
            </div>
          )}
        </div>
        <Button type="primary" onClick={openComboStore}>
          购买套餐
        </Button>
      </div>
      <section aria-label="算力变化记录">
        <List
          dataSource={page.list}
          rowKey="id"
          loading={ledger.isFetching && ledger.isPlaceholderData}
          locale={{ emptyText: <Empty description="还没有算力变化" /> }}
          renderItem={(entry) => <LedgerRow entry={entry} />}
          pagination={listPagination(current, PAGE_SIZE, page.total, setCurrent)}
        />
      </section>
    </div>
  );
}
