import { accountSchema } from '@huafang/contracts';
import { Form, Input, Typography } from 'antd';
import { FormSubmit } from '../../common/FormSubmit';
import { signUp } from '../../services/auth';
import { toast } from '../../services/notices';
import { useSession } from '../../stores/session';
import { AccountModal } from './AccountModal';
import { NewPasswordFields } from './NewPasswordFields';
import { useSubmit } from './use-submit';
import { optionalText, zodRule } from './zod-rule';

interface RegisterValues {
  password: string;
  confirm: string;
  account?: string;
}

/**
 * Completes a code-405 registration (an unknown account name at 账号登录): a password, then 完善资料. A new mobile
 * never comes here: 手机登录 signs it up in one step.
 */
export function RegisterDialog() {
  const userId = useSession((state) => state.pendingUserId);
  const [form] = Form.useForm<RegisterValues>();
  const { submitting, submit, error } = useSubmit();

  async function onFinish(values: RegisterValues) {
    if (!userId) return;
    await submit(async () => {
      const result = await signUp({ userId, password: values.password, account: optionalText(values.account) });
      const session = useSession.getState();
      session.signIn(result);
      toast('注册成功', 'success');
      session.openDialog('nickname');
    });
  }

  return (
    <AccountModal name="register" title="注册账号" width={440} mask={{ closable: false }}>
      <Typography.Paragraph type="secondary">
        该账号尚未注册。设置登录密码即可完成注册，之后用账号和密码登录。
      </Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <NewPasswordFields label="登录密码" autoFocus />
        <Form.Item
          name="account"
          label="账号（选填）"
          extra="4–20 位字母、数字或下划线，以字母开头"
          rules={[zodRule(accountSchema, { optional: true })]}
        >
          <Input placeholder="设置一个账号，用于账号登录" autoComplete="username" />
        </Form.Item>
        <FormSubmit label="注册" submitting={submitting} error={error} />
      </Form>
    </AccountModal>
  );
}
