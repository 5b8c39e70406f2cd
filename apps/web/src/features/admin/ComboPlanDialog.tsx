import { type ComboPlan, type ComboPlanBody, comboPlanBodySchema } from '@huafang/contracts';
import { Form, Input, InputNumber, Select, Switch } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { toast } from '../../services/notices';
import { createCombo, updateCombo } from '../../services/store';
import { useSubmit } from '../account/use-submit';
import { zodRule } from '../account/zod-rule';

interface ComboPlanValues {
  name: string;
  /** 元 with two decimals; the body carries fen. */
  priceYuan: number;
  credits: number;
  /** Empty (null): the credits never expire. */
  validityDays: number | null;
  description?: string;
  features: string[];
  /** An emptied number box gives null. */
  sort: number | null;
  recommended: boolean;
  enabled: boolean;
  purchasable: boolean;
}

interface ComboPlanDialogProps {
  open: boolean;
  /** The plan being edited; absent when creating one. */
  plan?: ComboPlan;
  /** Where a new plan goes in the store's order. */
  nextSort: number;
  onClose: () => void;
  onSaved: () => void;
}

const { shape } = comboPlanBodySchema;

function toBody(values: ComboPlanValues): ComboPlanBody {
  return {
    name: values.name.trim(),
    priceFen: Math.round(values.priceYuan * 100),
    credits: values.credits,
    validityDays: values.validityDays ?? null,
    description: values.description?.trim() ?? '',
    features: values.features.map((feature) => feature.trim()).filter(Boolean),
    sort: values.sort ?? 0,
    recommended: values.recommended,
    enabled: values.enabled,
    purchasable: values.purchasable,
  };
}

/** 新建套餐 / 编辑套餐: what the 套餐商店 card shows. */
export function ComboPlanDialog({ open, plan, nextSort, onClose, onSaved }: ComboPlanDialogProps) {
  const { submitting, submit } = useSubmit();
  const initialValues: Partial<ComboPlanValues> = plan
    ? { ...plan, priceYuan: plan.priceFen / 100 }
    : { validityDays: null, features: [], sort: nextSort, recommended: false, enabled: true, purchasable: true };

  const onFinish = (values: ComboPlanValues) =>
    submit(async () => {
      const body = toBody(values);
      const saved = plan ? await updateCombo(plan.id, body) : await createCombo(body);
      toast(`套餐「${saved.name}」已保存`, 'success');
      onSaved();
    });

  return (
    <FormDialog<ComboPlanValues>
      open={open}
      title={plan ? '编辑套餐' : '新建套餐'}
      width={520}
      onClose={onClose}
      submitLabel={plan ? '保存' : '创建'}
      submitting={submitting}
      onFinish={onFinish}
      initialValues={initialValues}
    >
      <Form.Item name="name" label="套餐名称" rules={[zodRule(shape.name)]}>
        <Input placeholder="例如：创作版" maxLength={20} autoFocus />
      </Form.Item>
      <Form.Item name="priceYuan" label="价格（元）" rules={[{ required: true, message: '请填写价格' }]}>
        <InputNumber min={0.01} max={100_000} precision={2} placeholder="例如：49.00" className="hf-full-width" />
      </Form.Item>
      <Form.Item name="credits" label="算力点数" rules={[zodRule(shape.credits)]}>
        <InputNumber min={1} max={1_000_000} precision={0} placeholder="例如：1200" className="hf-full-width" />
      </Form.Item>
      <Form.Item
        name="validityDays"
        label="有效期（天）"
        extra="购买后多少天内可用，到期未用完的算力作废；留空为永久有效"
        rules={[zodRule(shape.validityDays, { optional: true })]}
      >
        <InputNumber min={1} max={3650} precision={0} placeholder="永久有效" className="hf-full-width" />
      </Form.Item>
      <Form.Item name="description" label="套餐说明（选填）" rules={[zodRule(shape.description, { optional: true })]}>
        <Input placeholder="一句话说明适合谁" maxLength={200} />
      </Form.Item>
      <Form.Item name="features" label="权益" extra="输入后按回车添加，最多 8 条" rules={[zodRule(shape.features)]}>
        <Select mode="tags" placeholder="例如：优先排队" tokenSeparators={[',', '，']} notFoundContent={null} />
      </Form.Item>
      <Form.Item name="sort" label="排序" extra="数字小的排在前面" rules={[zodRule(shape.sort)]}>
        <InputNumber min={0} max={999} precision={0} className="hf-full-width" />
      </Form.Item>
      <div className="hf-admin-switches">
        <Form.Item name="recommended" label="推荐" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="enabled" label="上架" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="purchasable" label="在线购买" valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
    </FormDialog>
  );
}
