import { type CreateInviteCodeBody, createInviteCodeBodySchema } from '@huafang/contracts';
import { Form, Input, InputNumber, Select } from 'antd';
import { FormDialog } from '../../common/FormDialog';
import { createInviteCode } from '../../services/admin';
import { toast } from '../../services/notices';
import { useSubmit } from '../account/use-submit';
import { optionalText, zodRule } from '../account/zod-rule';
import { INVITE_CODE_TYPES } from './invite-code-types';

interface CreateInviteCodeDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (code: string) => void;
}

const { shape } = createInviteCodeBodySchema;

export function CreateInviteCodeDialog({ open, onClose, onCreated }: CreateInviteCodeDialogProps) {
  const { submitting, submit } = useSubmit();

  const onFinish = (values: CreateInviteCodeBody) =>
    submit(async () => {
      const created = await createInviteCode({
        code: optionalText(values.code),
        codeType: values.codeType,
        maxUses: values.maxUses,
        remark: optionalText(values.remark),
      });
      toast(`邀请码 ${created.code} 已创建`, 'success');
      onCreated(created.code);
    });

  return (
    <FormDialog<CreateInviteCodeBody>
      open={open}
      title="新建邀请码"
      width={460}
      onClose={onClose}
      submitLabel="创建"
      submitting={submitting}
      onFinish={onFinish}
      initialValues={{ codeType: '01', maxUses: 10 }}
    >
      <Form.Item
        name="code"
        label="邀请码（选填）"
        extra="留空则自动生成"
        rules={[zodRule(shape.code, { optional: true })]}
      >
        <Input placeholder="4–32 位字母或数字" maxLength={32} autoFocus />
      </Form.Item>
      <Form.Item name="codeType" label="类型" rules={[zodRule(shape.codeType)]}>
        <Select
          options={INVITE_CODE_TYPES.map((type) => ({ value: type.value, label: `${type.value} ${type.label}` }))}
        />
      </Form.Item>
      <Form.Item name="maxUses" label="可用次数" rules={[zodRule(shape.maxUses)]}>
        <InputNumber min={1} max={100_000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      <Form.Item name="remark" label="备注（选填）" rules={[zodRule(shape.remark, { optional: true })]}>
        <Input placeholder="例如：线下活动" maxLength={100} />
      </Form.Item>
    </FormDialog>
  );
}
