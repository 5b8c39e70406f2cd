import { describe, expect, it } from 'vitest';
import { RequestError } from '../../services/request-error';
import { DEFAULT_RESEND_SECONDS, refusedWaitSeconds, resendLabel, resendSeconds } from './sms-countdown';

describe('sms resend countdown', () => {
  it('labels the button while counting and when ready', () => {
    expect(resendLabel(60)).toBe('60 秒后重发');
    expect(resendLabel(1)).toBe('1 秒后重发');
    expect(resendLabel(0)).toBe('获取验证码');
  });

  it('waits as long as the server says, else 60 s', () => {
    expect(resendSeconds(45)).toBe(45);
    expect(resendSeconds(2.2)).toBe(3);
    expect(resendSeconds(0)).toBe(DEFAULT_RESEND_SECONDS);
    expect(resendSeconds(undefined)).toBe(DEFAULT_RESEND_SECONDS);
  });

  it('counts down what a 429 refusal names, and nothing for other failures', () => {
    const refusal = (message: string, status = 429) => new RequestError({ message, code: -1, status, notified: true });
    expect(refusedWaitSeconds(refusal('验证码发送过于频繁，请 42 秒后再试'))).toBe(42);
    expect(refusedWaitSeconds(refusal('操作过于频繁，请 7 秒后再试'))).toBe(7);
    expect(refusedWaitSeconds(refusal('操作过于频繁'))).toBe(DEFAULT_RESEND_SECONDS);
    expect(refusedWaitSeconds(refusal('手机号格式不正确', 400))).toBeNull();
    expect(refusedWaitSeconds(new Error('boom'))).toBeNull();
  });
});
