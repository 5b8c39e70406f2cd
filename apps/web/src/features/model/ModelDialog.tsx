import {
  type ArtModel,
  accessRuleSchema,
  type ModelBody,
  type ModelGroup,
  modelBodySchema,
  REMOTE_ENGINE_KINDS,
} from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Select, Switch } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { createModel, modelKeys, updateModel } from '../../services/model';
import { toast } from '../../services/notices';
import { zodRule } from '../account/zod-rule';
import { AccessPlansSelect } from './AccessPlansSelect';
import { ENGINE_OPTIONS } from './engine-labels';
import { FAMILY_OPTIONS } from './family-options';

interface ModelDialogProps {
  open: boolean;
  groups: ModelGroup[];
  /** The group the page shows: a new model goes there unless another is chosen. */
  groupId: string | undefined;
  /** The model being edited; absent when adding one. */
  model?: ArtModel;
  onClose: () => void;
}

type ModelValues = Omit<ModelBody, 'cover'>;

const { shape } = modelBodySchema;

/** 新建模型 / 编辑模型: the name users see, its group (tab), and the checkpoint a backend runs. */
export function ModelDialog({ open, groups, groupId, model, onClose }: ModelDialogProps) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (values: ModelValues) => {
      // The cover is not edited here: an edit keeps the one the model has.
      const body: ModelBody = { ...values, cover: model?.cover ?? null };
      return model ? updateModel(model.id, body) : createModel(body);
    },
    onSuccess: async (saved) => {
      toast(model ? `「${saved.modelName}」已保存` : `已添加模型「${saved.modelName}」`, 'success');
      await queryClient.invalidateQueries({ queryKey: modelKeys.menus });
      onClose();
    },
  });
  const initial: Partial<ModelValues> = model
    ? {
        groupId,
        modelName: model.modelName,
        baseModel: model.baseModel,
        engine: model.engine,
        checkpoint: model.checkpoint,
        enabled: model.enabled,
        chinesePrompts: model.chinesePrompts,
        family: model.family,
        access: model.access,
      }
    : {
        groupId,
        engine: REMOTE_ENGINE_KINDS[0],
        enabled: true,
        chinesePrompts: false,
        family: 'SD1.5',
        access: { planIds: [] },
      };

  return (
    <FormDialog<ModelValues>
      open={open}
      title={model ? '编辑模型' : '新建模型'}
      width={520}
      onClose={onClose}
      submitLabel={model ? '保存' : '添加'}
      submitting={save.isPending}
      error={save.error?.message ?? null}
      initialValues={initial}
      onFinish={(values) => save.mutate(values)}
    >
      <Form.Item name="modelName" label="模型名称" rules={[zodRule(shape.modelName)]}>
        <Input placeholder="用户在创作页看到的名称" maxLength={40} autoFocus />
      </Form.Item>
      <Form.Item name="groupId" label="分组" rules={[zodRule(shape.groupId)]}>
        <Select options={groups.map((group) => ({ value: group.id, label: group.name }))} placeholder="选择分组" />
      </Form.Item>
      <Form.Item name="baseModel" label="基础模型" rules={[zodRule(shape.baseModel)]}>
        <Input placeholder="例如：SD 1.5、SDXL" maxLength={20} />
      </Form.Item>
      <Form.Item
        name="family"
        label="基础模型类型"
        extra="决定可选的尺寸和能搭配的 LoRA 风格"
        rules={[zodRule(shape.family)]}
      >
        <Select options={FAMILY_OPTIONS} />
      </Form.Item>
      <Form.Item name="engine" label="推理引擎" rules={[zodRule(shape.engine)]}>
        <Select options={ENGINE_OPTIONS} />
      </Form.Item>
      <Form.Item
        name="checkpoint"
        label="后端模型名"
        extra="后端上的 checkpoint 名称，A1111 为模型标题（含哈希），ComfyUI 为 ckpt_name"
        rules={[zodRule(shape.checkpoint)]}
      >
        <Input placeholder="例如：v1-5-pruned-emaonly.safetensors" maxLength={200} />
      </Form.Item>
      <Form.Item
        name={['access', 'planIds']}
        label="可用范围"
        extra="选择套餐后，只有持有这些套餐的用户能用，其他用户看到它已锁定及解锁方式"
        rules={[zodRule(accessRuleSchema.shape.planIds)]}
      >
        <AccessPlansSelect />
      </Form.Item>
      <Form.Item name="enabled" label="启用" valuePropName="checked">
        <Switch />
      </Form.Item>
      <Form.Item
        name="chinesePrompts"
        label="读懂中文提示词"
        valuePropName="checked"
        extra="Kolors、Hunyuan-DiT、Qwen-Image 等模型能直接读中文，打开后提示词原样发送；关闭时中文先译成英文再发送（大多数 Stable Diffusion 模型只读英文）"
      >
        <Switch aria-label="读懂中文提示词" />
      </Form.Item>
    </FormDialog>
  );
}
