import { accountSchema, passwordSchema } from '@huafang/contracts';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { signUp } from '../../services/auth';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { optionalText, sameAsRule, zodRule } from './zod-rule';

interface RegisterValues {
  password: string;
  confirm: string;
  account?: string;
}

/** Completes a code-405 registration: a password, optionally an account name, then 完善资料. */
export function RegisterDialog() {
  const open = useSession((state) => state.dialogs.register);
  const userId = useSession((state) => state.pendingUserId);
  const closeDialog = useSession((state) => state.closeDialog);
  const [form] = Form.useForm<RegisterValues>();
  const [submitting, setSubmitting] = useState(false);

  async function onFinish(values: RegisterValues) {
    if (!userId) return;
    setSubmitting(true);
    try {
      const result = await signUp({ userId, password: values.password, account: optionalText(values.account) });
      const session = useSession.getState();
      session.signIn(result);
      toast('注册成功', 'success');
      session.openDialog('nickname');
    } catch {
      // The request layer has shown the failure; the dialog stays for another try.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title="注册账号"
      onCancel={() => closeDialog('register')}
      footer={null}
      width={440}
      mask={{ closable: false }}
      destroyOnHidden
      centered
    >
      <Typography.Paragraph type="secondary">
        该手机号尚未注册。设置登录密码即可完成注册，之后也可以用账号和密码登录。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="password" label="登录密码" rules={[zodRule(passwordSchema)]}>
          <Input.Password placeholder="8–32 位，需同时包含字母和数字" autoComplete="new-password" autoFocus />
        </Form.Item>
        <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[sameAsRule('password')]}>
          <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="account"
          label="账号（选填）"
          extra="4–20 位字母、数字或下划线，以字母开头"
          rules={[zodRule(accountSchema, { optional: true })]}
        >
          <Input placeholder="设置一个账号，用于账号登录" autoComplete="username" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          注册
        </Button>
      </Form>
    </Modal>
  );
}
