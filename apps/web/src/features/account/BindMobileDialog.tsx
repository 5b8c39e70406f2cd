import { MSG, mobileSchema } from '@huafang/contracts';
import { Button, Form, Input } from 'antd';
import { SubmitError } from '../../common/SubmitError';
import { toast } from '../../services/notices';
import { bindMobile } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { loadCurrentUser } from './current-user';
import { SmsCodeField } from './SmsCodeField';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

export function BindMobileDialog() {
  const closeDialog = useSession((state) => state.closeDialog);
  const [form] = Form.useForm<{ mobile: string; code: string }>();
  const { submitting, submit, error } = useSubmit();

  const onFinish = (values: { mobile: string; code: string }) =>
    submit(async () => {
      await bindMobile(values.mobile.trim(), values.code.trim());
      toast(MSG.bound, 'success');
      closeDialog('bindMobile');
      await loadCurrentUser();
    });

  return (
    <AccountModal name="bindMobile" title="绑定手机" width={420}>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="mobile" label="手机号" rules={[zodRule(mobileSchema)]}>
          <Input placeholder="请输入手机号" maxLength={11} inputMode="tel" autoFocus />
        </Form.Item>
        <SmsCodeField form={form} scene="bind" label="验证码" />
        <SubmitError error={error} />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          绑定
        </Button>
      </Form>
    </AccountModal>
  );
}
