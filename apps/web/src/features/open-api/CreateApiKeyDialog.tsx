import {
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  type ApiKeyCreated,
  type ApiKeyScope,
  apiKeyCreateBodySchema,
} from '@huafang/contracts';
import { Checkbox, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { DialogActions } from '../../common/DialogActions';
import { createApiKey } from '../../services/api-keys';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';
import { SCOPE_LABELS } from './open-api-labels';
import { SecretReveal } from './SecretReveal';

interface ApiKeyValues {
  name: string;
  scopes: ApiKeyScope[];
}

interface CreateApiKeyDialogProps {
  open: boolean;
  onClose: () => void;
  /** Called as soon as the key exists, while its secret is still on show. */
  onCreated: () => void;
}

const { shape } = apiKeyCreateBodySchema;

const SCOPE_OPTIONS = API_KEY_SCOPES.map((scope) => ({
  value: scope,
  label: (
    <span className="hf-oa-option">
      <span>{SCOPE_LABELS[scope].label}</span>
      <span className="hf-muted">{SCOPE_LABELS[scope].detail}</span>
    </span>
  ),
}));

/**
 * 创建密钥: a name and scopes, then the whole key, shown this once with 复制. Clicking beside the dialog does not close
 * it while the key shows, so it is not lost by a stray tap.
 */
export function CreateApiKeyDialog({ open, onClose, onCreated }: CreateApiKeyDialogProps) {
  const { submitting, submit, error } = useSubmit();
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);

  const onFinish = (values: ApiKeyValues) =>
    submit(async () => {
      setCreated(await createApiKey({ name: values.name.trim(), scopes: values.scopes }));
      onCreated();
    });

  return (
    <Modal
      open={open}
      title={created ? '密钥已创建' : '创建密钥'}
      onCancel={onClose}
      afterClose={() => setCreated(null)}
      footer={null}
      width={520}
      maskClosable={!created}
      destroyOnHidden
    >
      {created ? (
        <SecretReveal
          label="API 密钥"
          secret={created.key}
          warning="完整的 API 密钥只显示这一次，关闭后无法再次查看；丢失后只能撤销它并重新创建。"
          onDone={onClose}
        />
      ) : (
        <Form<ApiKeyValues>
          layout="vertical"
          onFinish={onFinish}
          initialValues={{ scopes: ['generate'] }}
          requiredMark={false}
        >
          <Form.Item name="name" label="密钥名称" rules={[zodRule(shape.name)]} extra="用来辨认这个密钥的用途">
            <Input placeholder="例如：批量出图脚本" maxLength={API_KEY_NAME_MAX} autoFocus autoComplete="off" />
          </Form.Item>
          <Form.Item name="scopes" label="权限范围" rules={[zodRule(shape.scopes)]}>
            <Checkbox.Group options={SCOPE_OPTIONS} className="hf-oa-checks" />
          </Form.Item>
          <DialogActions submitLabel="创建" submitting={submitting} onCancel={onClose} error={error} />
        </Form>
      )}
    </Modal>
  );
}
