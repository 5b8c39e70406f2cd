import { accountSchema, MSG } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { toast } from '../../services/notices';
import { updateAccount } from '../../services/user';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { loadCurrentUser } from './current-user';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

/** 修改账号: the name used with a password to log in; it can be changed once. */
export function EditAccountDialog() {
  const account = useSession((state) => state.userData?.account ?? '');
  const openDialog = useSession((state) => state.openDialog);
  const { submitting, submit, error } = useSubmit();

  const onFinish = (values: { account: string }) =>
    submit(async () => {
      await updateAccount(values.account.trim());
      toast(MSG.set, 'success');
      await loadCurrentUser();
      openDialog('profile');
    });

  return (
    <AccountModal name="editAccount" title="修改账号" width={420} onCancel={() => openDialog('profile')}>
      <Typography.Paragraph type="secondary">
        账号用于“账号 + 密码”登录，只能修改一次，改后原账号不能再用于登录。当前账号：{account || '未设置'}
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="account"
          label="新账号"
          extra="4–20 位字母、数字或下划线，以字母开头"
          rules={[zodRule(accountSchema)]}
        >
          <Input placeholder="请输入新账号" maxLength={20} autoComplete="username" autoFocus />
        </Form.Item>
        <FormSubmit label="确认修改" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
