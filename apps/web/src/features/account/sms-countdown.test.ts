import { describe, expect, it } from 'vitest';
import { DEFAULT_RESEND_SECONDS, resendLabel, resendSeconds } from './sms-countdown';

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
});
