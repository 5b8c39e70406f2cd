import type { BackendItem } from '@huafang/contracts';
import { Badge, Tag } from 'antd';
import { formatDateTime } from '../../common/format-date-time';

/** 正常 / 异常 with the last check's message and time; a disabled backend is never checked. */
export function BackendStatus({ backend }: { backend: BackendItem }) {
  if (!backend.enabled) return <Badge status="default" text="已停用" />;
  return (
    <div className="hf-backend-status">
      <span>
        <Badge status={backend.healthy ? 'success' : 'error'} text={backend.healthy ? '正常' : '异常'} />
        {backend.busy && (
          <Tag color="processing" className="hf-backend-busy">
            运行中
          </Tag>
        )}
      </span>
      <span className="hf-muted">
        {backend.healthMessage}
        {backend.checkedAt && ` · ${formatDateTime(backend.checkedAt)}`}
      </span>
    </div>
  );
}
