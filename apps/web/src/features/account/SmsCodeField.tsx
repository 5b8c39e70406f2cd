import { type SmsScene, smsCodeSchema } from '@huafang/contracts';
import { Button, Form, type FormInstance, Input, Space } from 'antd';
import { SubmitError } from '../../common/SubmitError';
import { sendCode } from '../../services/auth';
import { refusedWaitSeconds, resendLabel, resendSeconds, useCountdown } from './sms-countdown';
import { useSubmit } from './use-submit';
import { zodRule } from './zod-rule';

interface SmsCodeFieldProps {
  form: FormInstance;
  scene: SmsScene;
  /** The form field holding the mobile the code goes to. */
  mobileField?: string;
  label?: string;
}

/** 验证码 input with 获取验证码 and the resend countdown. */
export function SmsCodeField({ form, scene, mobileField = 'mobile', label = '验证码' }: SmsCodeFieldProps) {
  // The label sits on the wrapper around input and button, so it names the input through this id.
  const inputId = `sms-code-${scene}`;
  const { remaining, start } = useCountdown();
  const { submitting: sending, submit, error } = useSubmit();

  async function onSend() {
    let mobile: string;
    try {
      mobile = (await form.validateFields([mobileField]))[mobileField];
    } catch {
      // The form already shows why the mobile is not acceptable.
      return;
    }
    await submit(async () => {
      try {
        const { resendAfter } = await sendCode({ mobile: mobile.trim(), scene });
        // The countdown on the button is the confirmation: a toast here would hold the one-toast slot and
        // swallow the server's message on the login that follows within 3 s.
        start(resendSeconds(resendAfter));
      } catch (failure) {
        const wait = refusedWaitSeconds(failure);
        if (wait) start(wait);
        throw failure;
      }
    });
  }

  return (
    <Form.Item label={label} htmlFor={inputId}>
      <Space.Compact block>
        <Form.Item name="code" noStyle rules={[zodRule(smsCodeSchema)]}>
          <Input id={inputId} placeholder="6 位验证码" maxLength={6} inputMode="numeric" autoComplete="one-time-code" />
        </Form.Item>
        <Button onClick={onSend} loading={sending} disabled={remaining > 0} style={{ minWidth: 116 }}>
          {resendLabel(remaining)}
        </Button>
      </Space.Compact>
      <SubmitError error={error} />
    </Form.Item>
  );
}
