import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { type AccountLoginBody, accountLoginBodySchema } from '@huafang/contracts';
import { Button, Form, Input } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { accountLogin } from '../../services/auth';
import { useSession } from '../../stores/session';
import { useAccountFlow } from './use-account-flow';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';
import './account-dialogs.css';

/** 账号登录 tab of the login dialog. */
export function AccountLoginForm() {
  const [form] = Form.useForm<AccountLoginBody>();
  const { submitting, submit, error } = useSubmit();
  const flow = useAccountFlow();
  const openDialog = useSession((state) => state.openDialog);

  const onFinish = (values: AccountLoginBody) =>
    submit(async () => {
      try {
        await flow.completeLogin(await accountLogin({ account: values.account.trim(), password: values.password }));
      } catch (error) {
        if (!flow.handleUnregistered(error, { showMessage: false })) throw error;
      }
    });

  return (
    <Form form={form} onFinish={onFinish} size="large" autoComplete="on" layout="vertical" requiredMark={false}>
      <Form.Item name="account" label="账号" rules={[zodRule(accountLoginBodySchema.shape.account)]}>
        <Input prefix={<UserOutlined />} placeholder="请输入账号" autoFocus autoComplete="username" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[zodRule(accountLoginBodySchema.shape.password)]}>
        <Input.Password prefix={<LockOutlined />} placeholder="请输入密码" autoComplete="current-password" />
      </Form.Item>
      <div className="hf-form-extra">
        <Button type="link" size="small" onClick={() => openDialog('resetPassword')}>
          忘记密码
        </Button>
      </div>
      <FormSubmit label="登录" submitting={submitting} error={error} />
    </Form>
  );
}
