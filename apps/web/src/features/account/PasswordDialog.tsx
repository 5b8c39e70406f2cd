import { MSG, updatePwdBodySchema } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { toast } from '../../services/notices';
import { setPassword, updatePassword } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { loadCurrentUser } from './current-user';
import { NewPasswordFields } from './NewPasswordFields';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

interface PasswordValues {
  oldPassword?: string;
  password: string;
  confirm: string;
}

/** 设置密码 for users without one, 修改密码 otherwise; a change signs out everywhere, here too, and revokes API keys. */
export function PasswordDialog() {
  const hasPassword = useSession((state) => state.userData?.hasPassword ?? false);
  const closeDialog = useSession((state) => state.closeDialog);
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();

  const onFinish = (values: PasswordValues) =>
    submit(async () => {
      if (hasPassword) {
        await updatePassword(values.oldPassword ?? '', values.password);
        flow.endSessionAfterPasswordChange();
      } else {
        await setPassword(values.password);
        toast(MSG.set, 'success');
        closeDialog('password');
        await loadCurrentUser();
      }
    });

  return (
    <AccountModal name="password" title={hasPassword ? '修改密码' : '设置密码'} width={420}>
      {hasPassword && (
        <Typography.Paragraph type="secondary">
          修改后所有设备都需要用新密码重新登录，你的所有个人 API 密钥也将被吊销。
        </Typography.Paragraph>
      )}
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        {hasPassword && (
          <Form.Item name="oldPassword" label="原密码" rules={[zodRule(updatePwdBodySchema.shape.oldPassword)]}>
            <Input.Password placeholder="请输入原密码" autoComplete="current-password" autoFocus />
          </Form.Item>
        )}
        <NewPasswordFields label={hasPassword ? '新密码' : '密码'} autoFocus={!hasPassword} />
        <FormSubmit label={hasPassword ? '修改密码' : '设置密码'} submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
