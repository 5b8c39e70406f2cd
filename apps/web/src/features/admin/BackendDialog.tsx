import { type BackendBody, type BackendItem, backendBodySchema } from '@huafang/contracts';
import { Form, Input, Modal, Radio, Select, Switch } from 'antd';
import { DialogActions } from '../../common/DialogActions';
import { createBackend, updateBackend } from '../../services/admin';
import { type ToastType, toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';
import { optionalText, zodRule } from '../account/zod-rule';

type EditableKind = BackendBody['kind'];

interface BackendValues {
  name: string;
  kind: EditableKind;
  baseUrl: string;
  username?: string;
  secret?: string;
  models: string[];
  enabled: boolean;
}

interface BackendDialogProps {
  open: boolean;
  /** The backend being edited; absent when adding one. */
  backend?: BackendItem;
  onClose: () => void;
  onSaved: () => void;
}

const { shape } = backendBodySchema;

const KIND_OPTIONS: { value: EditableKind; label: string }[] = [
  { value: 'sdwebui', label: 'A1111 · Forge' },
  { value: 'comfyui', label: 'ComfyUI' },
];

function initialValues(backend: BackendItem | undefined): Partial<BackendValues> {
  if (!backend || backend.kind === 'builtin') return { kind: 'sdwebui', models: [], enabled: true };
  return {
    name: backend.name,
    kind: backend.kind,
    baseUrl: backend.baseUrl,
    username: backend.username ?? undefined,
    models: backend.models,
    enabled: backend.enabled,
  };
}

function toBody(values: BackendValues): BackendBody {
  return {
    name: values.name.trim(),
    kind: values.kind,
    baseUrl: values.baseUrl.trim(),
    // ComfyUI has no user name: its token alone guards the proxy in front of it.
    username: values.kind === 'sdwebui' ? (optionalText(values.username) ?? null) : null,
    // Blank means "keep the stored one" when editing and "none" when adding; either way it is left out.
    secret: values.secret ? values.secret : undefined,
    models: values.models.map((model) => model.trim()).filter(Boolean),
    enabled: values.enabled,
  };
}

/** The server checks an enabled backend as it saves it, so the notice can already tell whether it answers. */
function savedNotice(saved: BackendItem): [string, ToastType] {
  if (!saved.enabled) return [`「${saved.name}」已保存（未启用）`, 'success'];
  if (saved.healthy) return [`「${saved.name}」已保存，连接正常`, 'success'];
  return [`「${saved.name}」已保存，但连接异常：${saved.healthMessage}`, 'warning'];
}

/** A1111 asks for a user name and password (--api-auth); ComfyUI only for the token of a proxy in front of it. */
function CredentialFields({ editing }: { editing: boolean }) {
  const kind = Form.useWatch<EditableKind | undefined>('kind');
  return (
    <>
      {kind === 'sdwebui' && (
        <Form.Item
          name="username"
          label="用户名（选填）"
          extra="启动参数 --api-auth 中的用户名"
          rules={[zodRule(shape.username, { optional: true })]}
        >
          <Input placeholder="未开启 API 认证可留空" maxLength={64} autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item
        name="secret"
        label={kind === 'comfyui' ? '访问令牌（选填）' : '密码（选填）'}
        rules={[zodRule(shape.secret, { optional: true })]}
      >
        <Input.Password
          placeholder={editing ? '留空则保持不变' : '未开启认证可留空'}
          maxLength={256}
          autoComplete="new-password"
        />
      </Form.Item>
    </>
  );
}

/** 添加后端 / 编辑: where an A1111 (or Forge) or ComfyUI server listens and which checkpoints it serves. */
export function BackendDialog({ open, backend, onClose, onSaved }: BackendDialogProps) {
  const { submitting, submit } = useSubmit();
  const editing = backend !== undefined;

  const onFinish = (values: BackendValues) =>
    submit(async () => {
      const body = toBody(values);
      const saved = editing ? await updateBackend(backend.id, body) : await createBackend(body);
      const [text, type] = savedNotice(saved);
      toast(text, type);
      onSaved();
    });

  return (
    <Modal
      open={open}
      title={editing ? '编辑后端' : '添加后端'}
      onCancel={onClose}
      footer={null}
      width={520}
      destroyOnHidden
    >
      <Form<BackendValues>
        layout="vertical"
        onFinish={onFinish}
        initialValues={initialValues(backend)}
        requiredMark={false}
      >
        <Form.Item name="name" label="名称" rules={[zodRule(shape.name)]}>
          <Input placeholder="例如：4090 工作站" maxLength={30} autoFocus />
        </Form.Item>
        <Form.Item name="kind" label="类型" rules={[zodRule(shape.kind)]}>
          <Radio.Group options={KIND_OPTIONS} optionType="button" buttonStyle="solid" />
        </Form.Item>
        <Form.Item name="baseUrl" label="地址" rules={[zodRule(shape.baseUrl)]}>
          <Input placeholder="例如：http://127.0.0.1:7860" maxLength={300} />
        </Form.Item>
        <CredentialFields editing={editing} />
        <Form.Item
          name="models"
          label="提供的模型"
          extra="填写后端上的 checkpoint 文件名，输入后按回车添加；留空表示全部模型"
          rules={[zodRule(shape.models)]}
        >
          <Select mode="tags" placeholder="全部模型" tokenSeparators={[',', '，']} notFoundContent={null} />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked">
          <Switch />
        </Form.Item>
        <DialogActions submitLabel={editing ? '保存' : '添加'} submitting={submitting} onCancel={onClose} />
      </Form>
    </Modal>
  );
}
