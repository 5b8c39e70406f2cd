import { passwordSchema } from '@huafang/contracts';
import { Form, Input } from 'antd';
import { sameAsRule, zodRule } from './zod-rule';

interface NewPasswordFieldsProps {
  label: string;
  autoFocus?: boolean;
}

/** The `password` and `confirm` fields of every form that sets a password. */
export function NewPasswordFields({ label, autoFocus }: NewPasswordFieldsProps) {
  return (
    <>
      <Form.Item name="password" label={label} rules={[zodRule(passwordSchema)]}>
        <Input.Password placeholder="8–32 位，需同时包含字母和数字" autoComplete="new-password" autoFocus={autoFocus} />
      </Form.Item>
      <Form.Item name="confirm" label="确认密码" dependencies={['password']} rules={[sameAsRule('password')]}>
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
