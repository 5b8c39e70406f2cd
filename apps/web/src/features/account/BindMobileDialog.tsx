import { MSG, mobileSchema } from '@huafang/contracts';
import { Form, Input } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
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
        <FormSubmit label="绑定" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
