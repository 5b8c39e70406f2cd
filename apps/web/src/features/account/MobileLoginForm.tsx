import { MobileOutlined } from '@ant-design/icons';
import { type MobileLoginBody, mobileSchema } from '@huafang/contracts';
import { Form, Input } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { mobileLogin } from '../../services/auth';
import { SmsCodeField } from './SmsCodeField';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/** 手机登录 tab: a new mobile is answered with 405 and continues to registration. */
export function MobileLoginForm() {
  const [form] = Form.useForm<MobileLoginBody>();
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = (values: MobileLoginBody) =>
    submit(async () => {
      try {
        await flow.completeLogin(await mobileLogin({ mobile: values.mobile.trim(), code: values.code.trim() }));
      } catch (error) {
        if (!flow.handleUnregistered(error, { showMessage: true })) throw error;
      }
    });

  return (
    <Form form={form} onFinish={onFinish} size="large" layout="vertical" requiredMark={false}>
      <Form.Item name="mobile" label="手机号" rules={[zodRule(mobileSchema)]}>
        <Input
          prefix={<MobileOutlined />}
          placeholder="请输入手机号"
          maxLength={11}
          inputMode="tel"
          autoComplete="tel"
          autoFocus
        />
      </Form.Item>
      <SmsCodeField form={form} scene="login" label="验证码" />
      <FormSubmit label="登录" submitting={submitting} error={error} />
    </Form>
  );
}
