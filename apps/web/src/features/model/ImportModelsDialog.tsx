import { ENGINE_KINDS, type ModelGroup, modelImportBodySchema } from '@huafang/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Form, Input, Select, Spin, Switch, Tag } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { adminQueries } from '../../services/admin';
import { importModels, modelKeys, modelQueries } from '../../services/model';
import { toast } from '../../services/notices';
import { zodRule } from '../account/zod-rule';

interface ImportModelsDialogProps {
  open: boolean;
  groups: ModelGroup[];
  /** The group the page shows, chosen by default. */
  groupId: string | undefined;
  onClose: () => void;
  /** The group the models went to, so the page can show it. */
  onImported: (groupId: string) => void;
}

interface ImportValues {
  backendId: string;
  checkpoints: string[];
  groupId: string;
  baseModel: string;
  enabled: boolean;
}

const { shape } = modelImportBodySchema;

/** The checkboxes of what the chosen backend reports; ones a model already uses are shown but cannot be chosen. */
function CheckpointChoices({
  backendId,
  value,
  onChange,
}: {
  backendId: string | undefined;
  value?: string[];
  onChange?: (value: string[]) => void;
}) {
  const checkpoints = useQuery({ ...modelQueries.checkpoints(backendId ?? ''), enabled: Boolean(backendId) });
  if (!backendId) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="先选择推理后端" />;
  if (checkpoints.isPending) return <Spin description="正在读取后端的模型列表…" />;
  if (checkpoints.isError) {
    return (
      <Alert
        type="error"
        showIcon
        title={checkpoints.error.message || '读取模型列表失败'}
        action={
          <Button size="small" onClick={() => checkpoints.refetch()}>
            重试
          </Button>
        }
      />
    );
  }
  if (checkpoints.data.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="后端没有报告任何模型" />;
  return (
    <Checkbox.Group
      className="hf-checkpoint-list"
      value={value}
      onChange={onChange}
      role="group"
      aria-label="要导入的模型"
    >
      {checkpoints.data.map((checkpoint) => (
        <Checkbox key={checkpoint.title} value={checkpoint.title} disabled={checkpoint.registered}>
          {checkpoint.name}
          <span className="hf-muted"> {checkpoint.title}</span>
          {checkpoint.registered && <Tag className="hf-checkpoint-tag">已添加</Tag>}
        </Checkbox>
      ))}
    </Checkbox.Group>
  );
}

/** 从后端导入: the checkpoints a registered backend reports become models of one group (a draw-page tab). */
export function ImportModelsDialog({ open, groups, groupId, onClose, onImported }: ImportModelsDialogProps) {
  const [form] = Form.useForm<ImportValues>();
  const backendId = Form.useWatch('backendId', form);
  const queryClient = useQueryClient();
  const backends = useQuery({ ...adminQueries.backends(), enabled: open });
  const run = useMutation({
    mutationFn: importModels,
    onSuccess: async ({ msg }, body) => {
      toast(msg, 'success');
      await queryClient.invalidateQueries({ queryKey: modelKeys.menus });
      onImported(body.groupId);
    },
  });

  return (
    <FormDialog<ImportValues>
      open={open}
      title="从后端导入模型"
      width={600}
      onClose={onClose}
      submitLabel="导入"
      submitting={run.isPending}
      error={run.error?.message ?? null}
      form={form}
      initialValues={{ groupId, checkpoints: [], enabled: true }}
      onFinish={(values) => run.mutate({ ...values, baseModel: values.baseModel.trim() })}
      onValuesChange={(changed) => {
        if ('backendId' in changed) form.setFieldValue('checkpoints', []);
      }}
    >
      <Form.Item name="backendId" label="推理后端" rules={[zodRule(shape.backendId)]}>
        <Select
          placeholder="选择已登记的推理后端"
          loading={backends.isPending}
          options={(backends.data ?? [])
            .filter((backend) => backend.enabled)
            .map((backend) => ({
              value: backend.id,
              label: `${backend.name}（${ENGINE_KINDS[backend.kind].label}）`,
            }))}
        />
      </Form.Item>
      <Form.Item
        name="checkpoints"
        label="要导入的模型"
        extra="已有模型使用的 checkpoint 不能重复导入"
        rules={[zodRule(shape.checkpoints)]}
      >
        <CheckpointChoices backendId={backendId} />
      </Form.Item>
      <Form.Item name="groupId" label="放入分组" extra="分组即创作页模型选择的标签" rules={[zodRule(shape.groupId)]}>
        <Select options={groups.map((group) => ({ value: group.id, label: group.name }))} placeholder="选择分组" />
      </Form.Item>
      <Form.Item name="baseModel" label="基础模型" rules={[zodRule(shape.baseModel)]}>
        <Input placeholder="例如：SD 1.5、SDXL" maxLength={20} />
      </Form.Item>
      <Form.Item name="enabled" label="导入后立即启用" valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}
