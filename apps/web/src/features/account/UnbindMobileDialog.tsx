import { mobileSchema } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { toast } from '../../services/notices';
import { unbindMobile } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { loadCurrentUser } from './current-user';
import { matchesMaskedMobile } from './mobile-match';
import { SmsCodeField } from './SmsCodeField';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/** Unbinding needs a code sent to the current mobile; afterwards the bind dialog opens (spec §4). */
export function UnbindMobileDialog() {
  const masked = useSession((state) => state.userData?.mobile ?? null);
  const [form] = Form.useForm<{ mobile: string; code: string }>();
  const { submitting, submit, error } = useSubmit();

  const onFinish = (values: { code: string }) =>
    submit(async () => {
      await unbindMobile(values.code.trim());
      toast('解绑成功', 'success');
      await loadCurrentUser();
      useSession.getState().openDialog('bindMobile');
    });

  return (
    <AccountModal name="unbindMobile" title="解绑手机" width={420}>
      <Typography.Paragraph type="secondary">
        当前绑定的手机号为 <Typography.Text strong>{masked}</Typography.Text>
        。为确认是本人操作，请输入完整的手机号并获取验证码。解绑后可绑定新的手机号。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="mobile"
          label="当前手机号"
          rules={[
            zodRule(mobileSchema),
            {
              validator: async (_rule, value: string | undefined) => {
                if (value && !matchesMaskedMobile(value, masked)) throw new Error('与当前绑定的手机号不一致');
              },
            },
          ]}
        >
          <Input placeholder="请输入完整的手机号" maxLength={11} inputMode="tel" autoFocus />
        </Form.Item>
        <SmsCodeField form={form} scene="unbind" label="验证码" />
        <FormSubmit label="确认解绑" submitting={submitting} error={error} danger />
      </Form>
    </AccountModal>
  );
}
