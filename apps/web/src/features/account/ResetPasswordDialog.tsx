import { MSG, mobileSchema } from '@huafang/contracts';
import { Button, Form, Input, Steps, Typography } from 'antd';
import { useState } from 'react';
import { FormSubmit } from '../../common/FormSubmit';
import { rePassword, reVerify } from '../../services/auth';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { NewPasswordFields } from './NewPasswordFields';
import { SmsCodeField } from './SmsCodeField';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';
import './account-dialogs.css';

/** 忘记密码: prove the mobile (reVerify → token), then set a new password with that token. */
export function ResetPasswordDialog() {
  const openDialog = useSession((state) => state.openDialog);
  const [verifyForm] = Form.useForm<{ mobile: string; code: string }>();
  const [token, setToken] = useState<string | null>(null);
  const { submitting, submit, error } = useSubmit();

  function backToLogin() {
    setToken(null);
    openDialog('login');
  }

  const onVerify = (values: { mobile: string; code: string }) =>
    submit(async () => {
      const result = await reVerify({ mobile: values.mobile.trim(), code: values.code.trim() });
      setToken(result.token);
    });

  async function onReset(values: { password: string }) {
    if (!token) return;
    await submit(async () => {
      await rePassword({ token, password: values.password });
      toast(MSG.set, 'success');
      backToLogin();
    });
  }

  return (
    <AccountModal name="resetPassword" title="找回密码" onCancel={backToLogin} width={440}>
      <Steps
        size="small"
        current={token ? 1 : 0}
        items={[{ title: '验证手机' }, { title: '设置新密码' }]}
        className="hf-steps"
      />
      {token ? (
        <Form key="reset" layout="vertical" onFinish={onReset} requiredMark={false}>
          <Typography.Paragraph type="secondary">
            重置后所有设备都需要用新密码重新登录，你的所有个人 API 密钥也将被吊销。
          </Typography.Paragraph>
          <NewPasswordFields label="新密码" autoFocus />
          <FormSubmit label="确认修改" submitting={submitting} error={error} />
        </Form>
      ) : (
        <Form key="verify" form={verifyForm} layout="vertical" onFinish={onVerify} requiredMark={false}>
          <Form.Item name="mobile" label="手机号" rules={[zodRule(mobileSchema)]}>
            <Input placeholder="请输入注册时的手机号" maxLength={11} inputMode="tel" autoFocus />
          </Form.Item>
          <SmsCodeField form={verifyForm} scene="reset" label="验证码" />
          <FormSubmit label="下一步" submitting={submitting} error={error} />
        </Form>
      )}
      <Button type="link" block onClick={backToLogin} className="hf-back-link">
        返回登录
      </Button>
    </AccountModal>
  );
}
