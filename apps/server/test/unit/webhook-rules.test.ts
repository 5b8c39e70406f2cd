import { describe, expect, it } from 'vitest';
import { WebhookAddressRules } from '../../src/features/webhooks/webhook-address.js';
import { nextAttemptDelayMs } from '../../src/features/webhooks/webhook-schedule.js';

describe('webhook addresses', () => {
  const strict = new WebhookAddressRules({ allowHttp: false, allowPrivate: false });
  const refusal = (url: string) => {
    try {
      strict.check(url);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };

  it('takes public https addresses only', () => {
    expect(refusal('https://hooks.example.com/huafang')).toBeNull();
    expect(refusal('https://203.0.113.9:8443/hook')).toBeNull();
    expect(refusal('http://hooks.example.com/huafang')).toBe('接收地址须以 https:// 开头');
    expect(refusal('https://user:secret@hooks.example.com/')).toBe('接收地址不能包含用户名或密码');
    for (const url of [
      'https://localhost/hook',
      'https://api.localhost/hook',
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://172.20.0.1/hook',
      'https://192.168.1.1/hook',
      'https://169.254.169.254/latest/meta-data',
      'https://100.64.0.1/hook',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[fd00::1]/hook',
      'https://[fe80::1]/hook',
      'https://[::ffff:10.0.0.1]/hook',
    ]) {
      expect(refusal(url), url).toBe('接收地址不能是内网或本机地址');
    }
  });

  it('refuses before sending a name that resolves to a private address', async () => {
    expect(await strict.refusal('https://localhost/hook')).toBe('接收地址不能是内网或本机地址');
    expect(await strict.refusal('https://no-such-host.invalid/hook')).toBe(
      '无法解析接收地址的域名 no-such-host.invalid',
    );
  });

  it('lets tests and LANs use http and private addresses when allowed', async () => {
    const open = new WebhookAddressRules({ allowHttp: true, allowPrivate: true });
    expect(() => open.check('http://127.0.0.1:8080/hook')).not.toThrow();
    expect(await open.refusal('http://192.168.1.10/hook')).toBeNull();
    const httpOnly = new WebhookAddressRules({ allowHttp: true, allowPrivate: false });
    expect(() => httpOnly.check('http://127.0.0.1/hook')).toThrow('接收地址不能是内网或本机地址');
  });
});

describe('webhook retry schedule', () => {
  it('waits 10 s, 1 min, 6 min, 36 min, 3.6 h, then gives up', () => {
    const delays = [1, 2, 3, 4, 5, 6].map((attempts) => nextAttemptDelayMs(attempts, 6, 10_000));
    expect(delays).toEqual([10_000, 60_000, 360_000, 2_160_000, 12_960_000, null]);
    expect(nextAttemptDelayMs(1, 1, 10_000)).toBeNull();
  });
});
