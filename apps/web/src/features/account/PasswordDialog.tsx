import { MSG, passwordSchema, updatePwdBodySchema } from '@huafang/contracts';
import { Button, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/notices';
import { setPassword, updatePassword } from '../../services/user';
import { useSession } from '../../stores/session';
import { loadCurrentUser } from './current-user';
import { useAccountFlow } from './use-account-flow';
import { sameAsRule, zodRule } from './zod-rule';

interface PasswordValues {
  oldPassword?: string;
  password: string;
  confirm: string;
}

/** 设置密码 for users without one, 修改密码 otherwise; a change signs out everywhere, here too. */
export function PasswordDialog() {
  const open = useSession((state) => state.dialogs.password);
  const hasPassword = useSession((state) => state.userData?.hasPassword ?? false);
  const closeDialog = useSession((state) => state.closeDialog);
  const [submitting, setSubmitting] = useState(false);
  const flow = useAccountFlow();

  async function onFinish(values: PasswordValues) {
    setSubmitting(true);
    try {
      if (hasPassword) {
        await updatePassword(values.oldPassword ?? '', values.password);
        flow.endSessionAfterPasswordChange();
      } else {
        await setPassword(values.password);
        toast(MSG.set, 'success');
        closeDialog('password');
        await loadCurrentUser();
      }
    } catch {
      // The request layer has shown the failure.
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <Modal
      open={open}
      title={hasPassword ? '修改密码' : '设置密码'}
      onCancel={() => closeDialog('password')}
      footer={null}
      width={420}
      destroyOnHidden
      centered
    >
      {hasPassword && (
        <Typography.Paragraph type="secondary">修改后所有设备都需要用新密码重新登录。</Typography.Paragraph>
      )}
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        {hasPassword && (
          <Form.Item name="oldPassword" label="原密码" rules={[zodRule(updatePwdBodySchema.shape.oldPassword)]}>
            <Input.Password placeholder="请输入原密码" autoComplete="current-password" autoFocus />
          </Form.Item>
        )}
        <Form.Item name="password" label={hasPassword ? '新密码' : '密码'} rules={[zodRule(passwordSchema)]}>
          <Input.Password
            placeholder="8–32 位，需同时包含字母和数字"
            autoComplete="new-password"
            autoFocus={!hasPassword}
          />
        </Form.Item>
        <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[sameAsRule('password')]}>
          <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={submitting}>
          {hasPassword ? '修改密码' : '设置密码'}
        </Button>
      </Form>
    </Modal>
  );
}
