import {
  MODERATION_ITEM_KIND_LABELS,
  MODERATION_VERDICT_LABELS,
  type ModerationItem,
  type ModerationReasonCount,
} from '@huafang/contracts';
import { Tag, Typography } from 'antd';
import { formatDateTime } from '../../common/format-date-time';

/** Red for what the provider would block, orange for what it wants reviewed, blue for users' reports. */
function colorOf(item: Pick<ModerationItem, 'kind' | 'verdict'>): string {
  if (item.kind === 'report') return 'blue';
  return item.verdict === 'block' ? 'red' : 'orange';
}

/** Every open reason of a work in the queue: where it came from, why, and the provider's or reporter's words. */
export function ModerationItemList({ items }: { items: ModerationItem[] }) {
  return (
    <ul className="hf-moderation-items">
      {items.map((item) => (
        <li key={item.id}>
          <Tag color={colorOf(item)}>
            {MODERATION_ITEM_KIND_LABELS[item.kind]}：{item.label}
          </Tag>
          {item.verdict && <span className="hf-moderation-verdict">{MODERATION_VERDICT_LABELS[item.verdict]}</span>}
          <Typography.Text type="secondary" className="hf-moderation-meta">
            {item.reporter ? `${item.reporter} · ` : ''}
            {formatDateTime(item.createdAt)}
          </Typography.Text>
          {item.detail && (
            <Typography.Paragraph ellipsis={{ rows: 2, tooltip: item.detail }} className="hf-moderation-detail">
              {item.detail}
            </Typography.Paragraph>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The reasons a decision settled, one tag per kind and reason with its count. */
export function ReasonCounts({ reasons }: { reasons: ModerationReasonCount[] }) {
  return (
    <span className="hf-moderation-counts">
      {reasons.map((reason) => (
        <Tag key={`${reason.kind}-${reason.label}`} color={colorOf({ kind: reason.kind, verdict: null })}>
          {MODERATION_ITEM_KIND_LABELS[reason.kind]}：{reason.label}
          {reason.count > 1 ? ` ×${reason.count}` : ''}
        </Tag>
      ))}
    </span>
  );
}
