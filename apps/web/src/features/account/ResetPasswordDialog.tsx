import { MSG, mobileSchema, passwordSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal, Steps } from 'antd';
import { useState } from 'react';
import { rePassword, reVerify } from '../../services/auth';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { SmsCodeField } from './SmsCodeField';
import { sameAsRule, zodRule } from './zod-rule';

/** 忘记密码: prove the mobile (reVerify → token), then set a new password with that token. */
export function ResetPasswordDialog() {
  const open = useSession((state) => state.dialogs.resetPassword);
  const openDialog = useSession((state) => state.openDialog);
  const [verifyForm] = Form.useForm<{ mobile: string; code: string }>();
  const [token, setToken] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  function backToLogin() {
    setToken(null);
    openDialog('login');
  }

  async function onVerify(values: { mobile: string; code: string }) {
    setSubmitting(true);
    try {
      const result = await reVerify({ mobile: values.mobile.trim(), code: values.code.trim() });
      setToken(result.token);
    } catch {
      // The request layer has shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  async function onReset(values: { password: string }) {
    if (!token) return;
    setSubmitting(true);
    try {
      await rePassword({ token, password: values.password });
      toast(MSG.set, 'success');
      backToLogin();
    } catch {
      // The request layer has shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal open={open} title="找回密码" onCancel={backToLogin} footer={null} width={440} destroyOnHidden centered>
      <Steps
        size="small"
        current={token ? 1 : 0}
        items={[{ title: '验证手机' }, { title: '设置新密码' }]}
        className="hf-steps"
      />
      {token ? (
        <Form key="reset" layout="vertical" onFinish={onReset} requiredMark={false}>
          <Form.Item name="password" label="新密码" rules={[zodRule(passwordSchema)]}>
            <Input.Password placeholder="8–32 位，需同时包含字母和数字" autoComplete="new-password" autoFocus />
          </Form.Item>
          <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[sameAsRule('password')]}>
            <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting}>
            确认修改
          </Button>
        </Form>
      ) : (
        <Form key="verify" form={verifyForm} layout="vertical" onFinish={onVerify} requiredMark={false}>
          <Form.Item name="mobile" label="手机号" rules={[zodRule(mobileSchema)]}>
            <Input placeholder="请输入注册时的手机号" maxLength={11} inputMode="tel" autoFocus />
          </Form.Item>
          <SmsCodeField form={verifyForm} scene="reset" label="验证码" />
          <Button type="primary" htmlType="submit" block loading={submitting}>
            下一步
          </Button>
        </Form>
      )}
      <Button type="link" block onClick={backToLogin} className="hf-back-link">
        返回登录
      </Button>
    </Modal>
  );
}
