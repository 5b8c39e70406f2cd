import {
  accessRuleSchema,
  type LoraAdmin,
  type LoraBody,
  loraBodySchema,
  MODEL_FAMILIES,
  REMOTE_ENGINE_KINDS,
} from '@huafang/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { AutoComplete, Form, Input, InputNumber, Select, Switch } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { createLora, loraKeys, updateLora } from '../../services/lora';
import { toast } from '../../services/notices';
import { zodRule } from '../account/zod-rule';
import { CoverUpload } from '../task-admin/CoverUpload';
import { AccessPlansSelect } from './AccessPlansSelect';
import { ENGINE_OPTIONS } from './engine-labels';
import { FAMILY_OPTIONS } from './family-options';

interface LoraDialogProps {
  open: boolean;
  /** The LoRA being edited; absent when adding one by hand. */
  lora?: LoraAdmin;
  /** The style groups in use, offered as 风格分组 choices. */
  groups: string[];
  onClose: () => void;
}

type LoraValues = LoraBody;

const { shape } = loraBodySchema;

const isLoraField = (field: unknown): field is keyof typeof shape =>
  typeof field === 'string' && Object.hasOwn(shape, field);

/** The body an edit starts from (also what the table's 启用 switch sends). */
export function loraBodyOf(lora: LoraAdmin): LoraBody {
  return {
    name: lora.name,
    loraName: lora.loraName,
    engine: lora.engine,
    styleGroup: lora.styleGroup,
    cover: lora.cover,
    description: lora.description,
    family: lora.family,
    triggerWords: lora.triggerWords,
    defaultWeight: lora.defaultWeight,
    minWeight: lora.minWeight,
    maxWeight: lora.maxWeight,
    enabled: lora.enabled,
    sort: lora.sort,
    access: lora.access,
  };
}

const NEW_LORA: Partial<LoraValues> = {
  engine: REMOTE_ENGINE_KINDS[0],
  family: MODEL_FAMILIES[0],
  cover: null,
  description: '',
  triggerWords: [],
  defaultWeight: 0.8,
  minWeight: 0,
  maxWeight: 1.5,
  enabled: true,
  sort: 0,
  access: { planIds: [] },
};

/**
 * 新建风格 / 编辑风格: how a LoRA is offered on /draw — its Chinese name, cover, group (the picker's tab), family,
 * trigger words, default and allowed weight, and who may use it.
 */
export function LoraDialog({ open, lora, groups, onClose }: LoraDialogProps) {
  const [form] = Form.useForm<LoraValues>();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: LoraBody) => (lora ? updateLora(lora.id, body) : createLora(body)),
    onSuccess: async (saved) => {
      toast(lora ? `「${saved.name}」已保存` : `已添加风格「${saved.name}」`, 'success');
      await queryClient.invalidateQueries({ queryKey: loraKeys.all });
      onClose();
    },
  });

  const submit = (values: LoraValues) => {
    const parsed = loraBodySchema.safeParse(values);
    if (parsed.success) {
      save.mutate(parsed.data);
      return;
    }
    // Rules the fields cannot check alone (默认权重 between the other two) land on the field they name.
    form.setFields(
      parsed.error.issues.flatMap((issue) => {
        const field = issue.path[0];
        return isLoraField(field) ? [{ name: field, errors: [issue.message] }] : [];
      }),
    );
  };

  return (
    <FormDialog<LoraValues>
      open={open}
      title={lora ? '编辑风格' : '新建风格'}
      width={620}
      onClose={onClose}
      submitLabel={lora ? '保存' : '添加'}
      submitting={save.isPending}
      error={save.error?.message ?? null}
      form={form}
      initialValues={lora ? loraBodyOf(lora) : NEW_LORA}
      onFinish={submit}
    >
      <Form.Item name="name" label="风格名称" rules={[zodRule(shape.name)]}>
        <Input placeholder="用户在风格选择里看到的名称，例如：水墨山水" maxLength={40} autoFocus />
      </Form.Item>
      <Form.Item
        name="loraName"
        label="后端 LoRA 名"
        extra="A1111 为 <lora:名称:权重> 里的名称，ComfyUI 为 lora_name（文件名）"
        rules={[zodRule(shape.loraName)]}
      >
        <Input placeholder="例如：hf_ink_wash" maxLength={200} />
      </Form.Item>
      <div className="hf-lora-form-row">
        <Form.Item name="engine" label="推理引擎" rules={[zodRule(shape.engine)]}>
          <Select options={ENGINE_OPTIONS} />
        </Form.Item>
        <Form.Item name="family" label="基础模型类型" extra="只有同类型的模型能用它" rules={[zodRule(shape.family)]}>
          <Select options={FAMILY_OPTIONS} />
        </Form.Item>
      </div>
      <Form.Item name="styleGroup" label="风格分组" extra="风格选择里的标签" rules={[zodRule(shape.styleGroup)]}>
        <AutoComplete
          options={groups.map((group) => ({ value: group }))}
          placeholder="例如：国风"
          maxLength={20}
          showSearch={{ filterOption: (input, option) => String(option?.value ?? '').includes(input) }}
        />
      </Form.Item>
      <Form.Item name="cover" label="封面" extra="风格选择里的示例图，建议竖图（3:4）">
        <CoverUpload />
      </Form.Item>
      <Form.Item name="description" label="风格说明" rules={[zodRule(shape.description)]}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} maxLength={200} placeholder="选填" />
      </Form.Item>
      <Form.Item
        name="triggerWords"
        label="触发词"
        extra="训练时用的词，输入后回车或逗号分隔；用户选中风格时自动加入提示词"
        rules={[zodRule(shape.triggerWords)]}
      >
        <Select
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，']}
          placeholder="例如：ink wash painting"
        />
      </Form.Item>
      <div className="hf-lora-form-row hf-lora-form-row-3">
        <Form.Item name="defaultWeight" label="默认权重" rules={[zodRule(shape.defaultWeight)]}>
          <InputNumber<number> step={0.05} min={-2} max={2} inputMode="decimal" className="hf-full-width" />
        </Form.Item>
        <Form.Item name="minWeight" label="最小权重" rules={[zodRule(shape.minWeight)]}>
          <InputNumber<number> step={0.05} min={-2} max={2} inputMode="decimal" className="hf-full-width" />
        </Form.Item>
        <Form.Item name="maxWeight" label="最大权重" rules={[zodRule(shape.maxWeight)]}>
          <InputNumber<number> step={0.05} min={-2} max={2} inputMode="decimal" className="hf-full-width" />
        </Form.Item>
      </div>
      <Form.Item
        name={['access', 'planIds']}
        label="可用范围"
        extra="选择套餐后，只有持有这些套餐的用户能用，其他用户看到它已锁定及解锁方式"
        rules={[zodRule(accessRuleSchema.shape.planIds)]}
      >
        <AccessPlansSelect />
      </Form.Item>
      <div className="hf-lora-form-row">
        <Form.Item name="sort" label="排序" extra="小的在前" rules={[zodRule(shape.sort)]}>
          <InputNumber<number> min={0} max={999} precision={0} inputMode="numeric" className="hf-full-width" />
        </Form.Item>
        <Form.Item name="enabled" label="启用" valuePropName="checked" extra="启用后用户才能在创作页选择">
          <Switch aria-label="启用" />
        </Form.Item>
      </div>
    </FormDialog>
  );
}
