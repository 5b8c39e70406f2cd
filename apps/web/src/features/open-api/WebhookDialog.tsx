import {
  WEBHOOK_DESCRIPTION_MAX,
  WEBHOOK_EVENT_TYPES,
  WEBHOOK_URL_MAX,
  type WebhookCreated,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookCreateBodySchema,
} from '@huafang/contracts';
import { Checkbox, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useAccess } from '../../access';
import { DialogActions } from '../../common/DialogActions';
import { toast } from '../../services/notices';
import { createWebhook, updateWebhook } from '../../services/webhooks';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';
import { EVENT_LABELS } from './open-api-labels';
import { SecretReveal } from './SecretReveal';

interface WebhookValues {
  url: string;
  description?: string;
  events: WebhookEventType[];
  allUsers: boolean;
}

interface WebhookDialogProps {
  open: boolean;
  /** The endpoint being edited; absent when adding one. */
  endpoint?: WebhookEndpoint;
  onClose: () => void;
  /** Called once the endpoint is saved (for a new one, while its secret is still on show). */
  onSaved: () => void;
}

const { shape } = webhookCreateBodySchema;

const EVENT_OPTIONS = WEBHOOK_EVENT_TYPES.map((type) => ({
  value: type,
  label: (
    <span className="hf-oa-option">
      <span>{EVENT_LABELS[type].label}</span>
      <span className="hf-muted">{EVENT_LABELS[type].detail}</span>
    </span>
  ),
}));

function initialValues(endpoint: WebhookEndpoint | undefined): Partial<WebhookValues> {
  if (!endpoint) return { events: [...WEBHOOK_EVENT_TYPES], allUsers: false };
  return {
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    allUsers: endpoint.allUsers,
  };
}

/**
 * 添加接收地址 / 编辑: where the events go and which ones. A new endpoint's signing secret is shown this once, after
 * the save, with 复制; clicking beside the dialog does not close it while the secret shows.
 */
export function WebhookDialog({ open, endpoint, onClose, onSaved }: WebhookDialogProps) {
  const { canReadDashboard } = useAccess();
  const { submitting, submit, error } = useSubmit();
  const [created, setCreated] = useState<WebhookCreated | null>(null);
  const editing = endpoint !== undefined;

  const onFinish = (values: WebhookValues) =>
    submit(async () => {
      const body = {
        url: values.url.trim(),
        description: values.description?.trim() ?? '',
        events: values.events,
        // Only admins may receive every user's events; the field is not sent for anyone else.
        ...(canReadDashboard ? { allUsers: values.allUsers } : {}),
      };
      if (editing) {
        await updateWebhook(endpoint.id, body);
        toast('修改成功', 'success');
        onSaved();
        onClose();
      } else {
        setCreated(await createWebhook(body));
        onSaved();
      }
    });

  return (
    <Modal
      open={open}
      title={created ? '接收地址已添加' : editing ? '编辑接收地址' : '添加接收地址'}
      onCancel={onClose}
      afterClose={() => setCreated(null)}
      footer={null}
      width={560}
      maskClosable={!created}
      destroyOnHidden
    >
      {created ? (
        <SecretReveal
          label="签名密钥"
          secret={created.secret}
          warning="签名密钥只显示这一次，关闭后无法再次查看。接收方用它验证每个请求的签名（Standard Webhooks）；丢失后可以在列表里点“重置密钥”换一个新的。"
          onDone={onClose}
        />
      ) : (
        <Form<WebhookValues>
          layout="vertical"
          onFinish={onFinish}
          initialValues={initialValues(endpoint)}
          requiredMark={false}
        >
          <Form.Item
            name="url"
            label="接收地址"
            rules={[zodRule(shape.url)]}
            extra="画坊向这个地址 POST 事件，须以 https:// 开头，不能指向内网地址"
          >
            <Input
              placeholder="https://example.com/huafang/webhook"
              maxLength={WEBHOOK_URL_MAX}
              inputMode="url"
              autoComplete="off"
              autoFocus
            />
          </Form.Item>
          <Form.Item name="description" label="备注（选填）" rules={[zodRule(shape.description, { optional: true })]}>
            <Input placeholder="例如：出图完成后通知内部系统" maxLength={WEBHOOK_DESCRIPTION_MAX} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="events"
            label="接收的事件"
            rules={[zodRule(shape.events)]}
            extra="请求体的 type 依次为 generation.succeeded、generation.failed、work.published；测试发送为 webhook.test"
          >
            <Checkbox.Group options={EVENT_OPTIONS} className="hf-oa-checks" />
          </Form.Item>
          {canReadDashboard && (
            <Form.Item name="allUsers" valuePropName="checked" extra="仅管理员可用，例如对接内部审核系统">
              <Checkbox>接收所有用户的事件</Checkbox>
            </Form.Item>
          )}
          <DialogActions
            submitLabel={editing ? '保存' : '添加'}
            submitting={submitting}
            onCancel={onClose}
            error={error}
          />
        </Form>
      )}
    </Modal>
  );
}
