import {
  type BackendBody,
  type BackendItem,
  backendBodySchema,
  ENGINE_KINDS,
  type EngineKindForm,
  REMOTE_ENGINE_KINDS,
  type RemoteEngineKind,
} from '@huafang/contracts';
import { Form, Input, Radio, Select, Switch } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { createBackend, updateBackend } from '../../services/admin';
import { type ToastType, toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';
import { optionalText, zodRule } from '../account/zod-rule';
import { REMOTE_ENGINE_OPTIONS } from '../model/engine-labels';

interface BackendValues {
  name: string;
  kind: RemoteEngineKind;
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

const isRemote = (kind: BackendItem['kind']): kind is RemoteEngineKind => ENGINE_KINDS[kind].remote;
const formOf = (kind: RemoteEngineKind): EngineKindForm => ENGINE_KINDS[kind].form;

function initialValues(backend: BackendItem | undefined): Partial<BackendValues> & { kind: RemoteEngineKind } {
  if (!backend || !isRemote(backend.kind)) return { kind: REMOTE_ENGINE_KINDS[0], models: [], enabled: true };
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
    // A kind whose form has no user name signs in with its secret alone.
    username: formOf(values.kind).username ? (optionalText(values.username) ?? null) : null,
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

/** The sign-in fields the chosen kind's form asks for (ENGINE_KINDS): a user name and password, or a token. */
function CredentialFields({ editing, initialKind }: { editing: boolean; initialKind: RemoteEngineKind }) {
  const { username, secret } = formOf(Form.useWatch<RemoteEngineKind | undefined>('kind') ?? initialKind);
  return (
    <>
      {username && (
        <Form.Item
          name="username"
          label={username.label}
          extra={username.extra}
          rules={[zodRule(shape.username, { optional: true })]}
        >
          <Input placeholder={username.placeholder} maxLength={64} autoComplete="off" />
        </Form.Item>
      )}
      <Form.Item name="secret" label={secret.label} rules={[zodRule(shape.secret, { optional: true })]}>
        <Input.Password
          placeholder={editing ? '留空则保持不变' : '未开启认证可留空'}
          maxLength={256}
          autoComplete="new-password"
        />
      </Form.Item>
    </>
  );
}

/** 添加后端 / 编辑: where a remote engine's server listens and which checkpoints it serves. */
export function BackendDialog({ open, backend, onClose, onSaved }: BackendDialogProps) {
  const { submitting, submit } = useSubmit();
  const editing = backend !== undefined;
  const initial = initialValues(backend);

  const onFinish = (values: BackendValues) =>
    submit(async () => {
      const body = toBody(values);
      const saved = editing ? await updateBackend(backend.id, body) : await createBackend(body);
      const [text, type] = savedNotice(saved);
      toast(text, type);
      onSaved();
    });

  return (
    <FormDialog<BackendValues>
      open={open}
      title={editing ? '编辑后端' : '添加后端'}
      width={520}
      onClose={onClose}
      submitLabel={editing ? '保存' : '添加'}
      submitting={submitting}
      onFinish={onFinish}
      initialValues={initial}
    >
      <Form.Item name="name" label="名称" rules={[zodRule(shape.name)]}>
        <Input placeholder="例如：4090 工作站" maxLength={30} autoFocus />
      </Form.Item>
      <Form.Item name="kind" label="类型" rules={[zodRule(shape.kind)]}>
        <Radio.Group options={REMOTE_ENGINE_OPTIONS} optionType="button" buttonStyle="solid" />
      </Form.Item>
      <Form.Item name="baseUrl" label="地址" rules={[zodRule(shape.baseUrl)]}>
        <Input placeholder="例如：http://127.0.0.1:7860" maxLength={300} />
      </Form.Item>
      <CredentialFields editing={editing} initialKind={initial.kind} />
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
    </FormDialog>
  );
}
