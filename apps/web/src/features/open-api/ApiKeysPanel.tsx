import { PlusOutlined } from '@ant-design/icons';
import { API_KEY_MAX_PER_USER, type ApiKey } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Result, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import { apiKeyKeys, apiKeyQueries, revokeApiKey } from '../../services/api-keys';
import { toast } from '../../services/notices';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';
import { maskedKey, SCOPE_LABELS } from './open-api-labels';

function ApiKeyItem({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => Promise<unknown> }) {
  return (
    <li className="hf-oa-item">
      <div className="hf-oa-item-main">
        <div className="hf-oa-item-title">
          <strong>{apiKey.name}</strong>
          <Typography.Text code className="hf-oa-code">
            {maskedKey(apiKey.prefix)}
          </Typography.Text>
        </div>
        <div className="hf-oa-tags">
          {apiKey.scopes.map((scope) => (
            <Tag key={scope} color="blue" title={SCOPE_LABELS[scope].detail}>
              {SCOPE_LABELS[scope].label}
            </Tag>
          ))}
        </div>
        <div className="hf-oa-meta">
          <span>创建于 {formatDateTime(apiKey.createdAt)}</span>
          <span>{apiKey.lastUsedAt ? `最近使用 ${formatDateTime(apiKey.lastUsedAt)}` : '从未使用'}</span>
        </div>
      </div>
      <div className="hf-oa-item-actions">
        <ConfirmAction
          title={`撤销密钥「${apiKey.name}」？`}
          description="撤销后立即失效，使用它的程序会收到“API 密钥无效或已删除”，且无法恢复。"
          okText="撤销"
          onConfirm={() => onRevoke(apiKey)}
        >
          <Button danger>撤销</Button>
        </ConfirmAction>
      </div>
    </li>
  );
}

/** 个人 API 密钥: the live keys (prefix only), 创建密钥 that shows a new key once, and 撤销. */
export function ApiKeysPanel() {
  const queryClient = useQueryClient();
  const keys = useQuery(apiKeyQueries.list());
  const [creating, setCreating] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.list });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => revokeApiKey(key.id),
    onSuccess: async (_data, key) => {
      toast(`密钥「${key.name}」已撤销`, 'success');
      await refresh();
    },
  });
  // The request layer has shown why a revoke failed; the confirmation just closes.
  const onRevoke = (key: ApiKey) => revoke.mutateAsync(key).catch(() => undefined);

  const count = keys.data?.length ?? 0;
  const full = count >= API_KEY_MAX_PER_USER;

  return (
    <div className="hf-oa-panel">
      <div className="hf-oa-intro">
        <Typography.Paragraph>
          脚本、批处理或其他系统可以用个人 API 密钥代替登录调用画坊的接口：在请求头带上
          <Typography.Text code>Authorization: Bearer 密钥</Typography.Text>
          。密钥以你的身份行事，只能调用所选权限范围内的接口；管理密钥、接收地址与账号设置仍需登录网页。
        </Typography.Paragraph>
        <div className="hf-oa-toolbar">
          <span className="hf-oa-meta">
            {keys.isSuccess ? `已有 ${count} 个，最多 ${API_KEY_MAX_PER_USER} 个` : null}
          </span>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} disabled={full}>
            创建密钥
          </Button>
        </div>
        {full && <Typography.Text type="secondary">已达上限，请先撤销不用的密钥。</Typography.Text>}
      </div>
      {keys.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : keys.isError ? (
        <Result
          status="warning"
          title="API 密钥加载失败"
          extra={<Button onClick={() => void keys.refetch()}>重试</Button>}
        />
      ) : keys.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有 API 密钥，点击“创建密钥”生成一个" />
      ) : (
        <ul className="hf-stack-list" aria-label="API 密钥列表">
          {keys.data.map((apiKey) => (
            <ApiKeyItem key={apiKey.id} apiKey={apiKey} onRevoke={onRevoke} />
          ))}
        </ul>
      )}
      <CreateApiKeyDialog open={creating} onClose={() => setCreating(false)} onCreated={() => void refresh()} />
    </div>
  );
}
