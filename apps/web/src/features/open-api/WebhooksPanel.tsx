import { PlusOutlined } from '@ant-design/icons';
import { WEBHOOK_MAX_PER_USER, type WebhookEndpoint, type WebhookTestResult } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Empty, Modal, Result, Skeleton, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { ConfirmAction } from '../../common/ConfirmAction';
import { formatDateTime } from '../../common/format-date-time';
import { useEditDialog } from '../../common/use-edit-dialog';
import { toast } from '../../services/notices';
import {
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
  webhookKeys,
  webhookQueries,
} from '../../services/webhooks';
import { EVENT_LABELS } from './open-api-labels';
import { SecretReveal } from './SecretReveal';
import { WebhookDeliveriesDrawer } from './WebhookDeliveriesDrawer';
import { WebhookDialog } from './WebhookDialog';

const INTRO =
  '登记一个接收地址，画坊在生成成功、生成失败或作品发布到灵感广场时向它 POST 一个 JSON 请求，不必反复查询进度。' +
  '每个请求按 Standard Webhooks 签名（webhook-id、webhook-timestamp、webhook-signature 三个请求头）；' +
  '接收方应尽快应答 2xx，否则按退避间隔重试，重试的 webhook-id 不变，可据此去重。';

/** The answer of the last 测试发送 of an endpoint, as the server worded it. */
interface TestOutcome {
  result: WebhookTestResult;
  msg: string;
}

function TestOutcomeAlert({ outcome, onClose }: { outcome: TestOutcome; onClose: () => void }) {
  const { result, msg } = outcome;
  const answer = result.statusCode === null ? '没有应答' : `应答 HTTP ${result.statusCode}`;
  return (
    <Alert
      className="hf-oa-test"
      type={result.success ? 'success' : 'error'}
      showIcon
      title={msg || (result.success ? '测试发送成功' : `测试发送失败：${result.error}`)}
      description={`${answer}，用时 ${result.durationMs} 毫秒。已记入投递记录。`}
      closable={{ 'aria-label': '关闭测试结果' }}
      onClose={onClose}
    />
  );
}

interface EndpointItemProps {
  endpoint: WebhookEndpoint;
  outcome: TestOutcome | undefined;
  testing: boolean;
  toggling: boolean;
  onTest: () => void;
  onClearOutcome: () => void;
  onToggle: (enabled: boolean) => void;
  onDeliveries: () => void;
  onEdit: () => void;
  onRotate: () => Promise<unknown>;
  onDelete: () => Promise<unknown>;
}

function EndpointItem(props: EndpointItemProps) {
  const { endpoint, outcome, testing, toggling } = props;
  return (
    <li className="hf-oa-item hf-oa-endpoint">
      <div className="hf-oa-item-main">
        <div className="hf-oa-item-title">
          <Typography.Text code className="hf-oa-code hf-oa-break">
            {endpoint.url}
          </Typography.Text>
          {!endpoint.enabled && <Tag>已停用</Tag>}
          {endpoint.allUsers && <Tag color="purple">所有用户</Tag>}
        </div>
        {endpoint.description && <div>{endpoint.description}</div>}
        <div className="hf-oa-tags">
          {endpoint.events.map((type) => (
            <Tag key={type} color="blue" title={type}>
              {EVENT_LABELS[type].label}
            </Tag>
          ))}
        </div>
        <div className="hf-oa-meta">
          <span>添加于 {formatDateTime(endpoint.createdAt)}</span>
          {!endpoint.enabled && <span>已停用：不再发送事件，测试发送仍可使用</span>}
        </div>
      </div>
      <div className="hf-oa-item-actions">
        <span className="hf-oa-switch">
          <Switch
            checked={endpoint.enabled}
            loading={toggling}
            onChange={props.onToggle}
            aria-label="启用接收地址"
            size="small"
          />
          <span aria-hidden>{endpoint.enabled ? '已启用' : '已停用'}</span>
        </span>
        <Button onClick={props.onTest} loading={testing}>
          测试发送
        </Button>
        <Button onClick={props.onDeliveries}>投递记录</Button>
        <Button onClick={props.onEdit}>编辑</Button>
        <ConfirmAction
          title="重置签名密钥？"
          description="旧密钥立即失效，接收方须换用新密钥验证签名。"
          okText="重置"
          danger={false}
          onConfirm={props.onRotate}
        >
          <Button>重置密钥</Button>
        </ConfirmAction>
        <ConfirmAction
          title="删除这个接收地址？"
          description="投递记录会一并删除，之后不再向它发送事件。"
          onConfirm={props.onDelete}
        >
          <Button danger>删除</Button>
        </ConfirmAction>
      </div>
      {outcome && <TestOutcomeAlert outcome={outcome} onClose={props.onClearOutcome} />}
    </li>
  );
}

/**
 * Webhook: the user's endpoints, 添加 / 编辑 / 启用 / 重置密钥 / 删除, 测试发送 with its result, and each one's 投递记录.
 */
export function WebhooksPanel() {
  const queryClient = useQueryClient();
  const endpoints = useQuery(webhookQueries.list());
  const dialog = useEditDialog<WebhookEndpoint>();
  const [logOf, setLogOf] = useState<WebhookEndpoint | null>(null);
  const [outcomes, setOutcomes] = useState<Record<string, TestOutcome>>({});
  const [newSecret, setNewSecret] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhookKeys.list });

  const setOutcome = (endpointId: string, outcome: TestOutcome | null) =>
    setOutcomes(({ [endpointId]: _old, ...rest }) => (outcome ? { ...rest, [endpointId]: outcome } : rest));

  const test = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => testWebhook(endpoint.id),
    onMutate: (endpoint) => setOutcome(endpoint.id, null),
    onSuccess: async ({ data, msg }, endpoint) => {
      setOutcome(endpoint.id, { result: data, msg });
      await queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(endpoint.id) });
    },
  });
  const toggle = useMutation({
    mutationFn: ({ endpoint, enabled }: { endpoint: WebhookEndpoint; enabled: boolean }) =>
      updateWebhook(endpoint.id, { enabled }),
    onSuccess: async (saved) => {
      toast(saved.enabled ? '已启用' : '已停用，不再向它发送事件', 'success');
      queryClient.setQueryData<WebhookEndpoint[]>(webhookKeys.list, (list) =>
        list?.map((item) => (item.id === saved.id ? saved : item)),
      );
    },
  });
  const rotate = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => rotateWebhookSecret(endpoint.id),
    onSuccess: (created) => setNewSecret(created.secret),
  });
  const remove = useMutation({
    mutationFn: (endpoint: WebhookEndpoint) => deleteWebhook(endpoint.id),
    onSuccess: async (_data, endpoint) => {
      toast('删除成功', 'success');
      setOutcome(endpoint.id, null);
      await refresh();
    },
  });

  const count = endpoints.data?.length ?? 0;
  const full = count >= WEBHOOK_MAX_PER_USER;

  return (
    <div className="hf-oa-panel">
      <div className="hf-oa-intro">
        <Typography.Paragraph>{INTRO}</Typography.Paragraph>
        <div className="hf-oa-toolbar">
          <span className="hf-oa-meta">
            {endpoints.isSuccess ? `已有 ${count} 个，最多 ${WEBHOOK_MAX_PER_USER} 个` : null}
          </span>
          <Button type="primary" icon={<PlusOutlined />} onClick={() => dialog.show()} disabled={full}>
            添加接收地址
          </Button>
        </div>
        {full && <Typography.Text type="secondary">已达上限，请先删除不用的接收地址。</Typography.Text>}
      </div>
      {endpoints.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : endpoints.isError ? (
        <Result
          status="warning"
          title="接收地址加载失败"
          extra={<Button onClick={() => void endpoints.refetch()}>重试</Button>}
        />
      ) : endpoints.data.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="还没有接收地址，点击“添加接收地址”登记一个" />
      ) : (
        <ul className="hf-stack-list" aria-label="接收地址列表">
          {endpoints.data.map((endpoint) => (
            <EndpointItem
              key={endpoint.id}
              endpoint={endpoint}
              outcome={outcomes[endpoint.id]}
              testing={test.isPending && test.variables?.id === endpoint.id}
              toggling={toggle.isPending && toggle.variables?.endpoint.id === endpoint.id}
              onTest={() => test.mutate(endpoint)}
              onClearOutcome={() => setOutcome(endpoint.id, null)}
              onToggle={(enabled) => toggle.mutate({ endpoint, enabled })}
              onDeliveries={() => setLogOf(endpoint)}
              onEdit={() => dialog.show(endpoint)}
              onRotate={() => rotate.mutateAsync(endpoint).catch(() => undefined)}
              onDelete={() => remove.mutateAsync(endpoint).catch(() => undefined)}
            />
          ))}
        </ul>
      )}
      <WebhookDialog
        open={dialog.open}
        endpoint={dialog.editing}
        onClose={dialog.close}
        onSaved={() => void refresh()}
      />
      <WebhookDeliveriesDrawer endpoint={logOf} onClose={() => setLogOf(null)} />
      <Modal
        open={newSecret !== null}
        title="签名密钥已重置"
        onCancel={() => setNewSecret(null)}
        footer={null}
        width={560}
        maskClosable={false}
        destroyOnHidden
      >
        {newSecret && (
          <SecretReveal
            label="签名密钥"
            secret={newSecret}
            warning="新的签名密钥只显示这一次，关闭后无法再次查看。旧密钥已经失效：请在接收方换用新密钥验证签名，之后的重试也用新密钥签名。"
            onDone={() => setNewSecret(null)}
          />
        )}
      </Modal>
    </div>
  );
}
