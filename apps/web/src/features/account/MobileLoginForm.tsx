import { MobileOutlined } from '@ant-design/icons';
import { type MobileLoginBody, mobileSchema } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { mobileLoginOrSignUp } from '../../services/auth';
import { SmsCodeField } from './SmsCodeField';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/** 手机登录 tab: one step for everyone — a new mobile is signed up by its code and logged in at once. */
export function MobileLoginForm() {
  const [form] = Form.useForm<MobileLoginBody>();
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = (values: MobileLoginBody) =>
    submit(async () => {
      const result = await mobileLoginOrSignUp({ mobile: values.mobile.trim(), code: values.code.trim() });
      await flow.completeLogin(result, { created: result.created });
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
      <Typography.Paragraph type="secondary" className="hf-login-hint">
        未注册的手机号验证后自动注册
      </Typography.Paragraph>
      <FormSubmit label="登录" submitting={submitting} error={error} />
    </Form>
  );
}
