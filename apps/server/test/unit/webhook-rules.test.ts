import { describe, expect, it } from 'vitest';
import { isPublicAddress, WebhookAddressRules } from '../../src/features/webhooks/webhook-address.js';
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
    expect(refusal('https://8.8.8.8:8443/hook')).toBeNull();
    expect(refusal('https://[2606:4700:4700::1111]/hook')).toBeNull();
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
      // Documentation, benchmark and reserved ranges are no receiver either.
      'https://203.0.113.9/hook',
      'https://198.18.0.1/hook',
      'https://240.0.0.1/hook',
    ]) {
      expect(refusal(url), url).toBe('接收地址不能是内网或本机地址');
    }
  });

  it('judges an IPv6 address that carries an IPv4 one by the IPv4 it carries', () => {
    for (const url of [
      'https://[::127.0.0.1]/hook', // IPv4-compatible
      'https://[::ffff:127.0.0.1]/hook', // IPv4-mapped
      'https://[::ffff:0:127.0.0.1]/hook', // IPv4-translated
      'https://[64:ff9b::127.0.0.1]/hook', // NAT64
      'https://[64:ff9b::a9fe:a9fe]/hook', // NAT64 of 169.254.169.254
      'https://[2002:7f00:1::]/hook', // 6to4 of 127.0.0.1
      'https://[2002:c0a8:101::1]/hook', // 6to4 of 192.168.1.1
      'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/hook', // Teredo, client 10.0.0.1
      'https://[2001:0:7f00:1::1]/hook', // Teredo, server 127.0.0.1
      'https://[64:ff9b:1::a00:1]/hook', // NAT64 local-use prefix
    ]) {
      expect(refusal(url), url).toBe('接收地址不能是内网或本机地址');
    }
    // The same forms around a public IPv4 address are public.
    for (const address of ['::ffff:8.8.8.8', '64:ff9b::8.8.8.8', '2002:808:808::1', '::8.8.8.8']) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    expect(isPublicAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7'), 'Teredo, client 8.8.8.8').toBe(true);
    expect(isPublicAddress('not an address')).toBe(false);
  });

  it('refuses, when saved, a port fetch will not connect to, whatever else is allowed', () => {
    const open = new WebhookAddressRules({ allowHttp: true, allowPrivate: true });
    for (const port of [6000, 10080, 25, 6667]) {
      expect(() => open.check(`http://hooks.example.com:${port}/hook`)).toThrow(
        `接收地址不能使用端口 ${port}（出于安全原因，HTTP 客户端禁止连接该端口），请换一个端口`,
      );
    }
    expect(() => open.check('https://hooks.example.com:8443/hook')).not.toThrow();
    // A default port written out is no port at all to URL.
    expect(() => strict.check('https://hooks.example.com:443/hook')).not.toThrow();
  });

  it('resolves a name once per connection, and refuses it when any address it resolves to is private', async () => {
    const answers = [
      [{ address: '8.8.8.8', family: 4 }],
      [
        { address: '8.8.4.4', family: 4 },
        { address: '127.0.0.1', family: 4 },
      ],
      [{ address: '64:ff9b::7f00:1', family: 6 }],
      [],
    ];
    let lookups = 0;
    const rules = new WebhookAddressRules({ allowHttp: false, allowPrivate: false }, async () => answers[lookups++]!);
    const lookup = (all: boolean) =>
      new Promise((resolve) =>
        rules.lookup('hooks.example.com', { all }, (err, address, family) =>
          resolve(err ? err.message : { address, family }),
        ),
      );
    expect(await lookup(false)).toEqual({ address: '8.8.8.8', family: 4 });
    expect(await lookup(true)).toBe('接收地址解析到内网或本机地址，已拒绝发送');
    expect(await lookup(true)).toBe('接收地址解析到内网或本机地址，已拒绝发送');
    expect(await lookup(true)).toBe('无法解析接收地址的域名 hooks.example.com');
    expect(lookups).toBe(4);
    expect(strict.refusal('https://localhost/hook')).toBe('接收地址不能是内网或本机地址');
    await expect(strict.addressesOf('no-such-host.invalid')).rejects.toThrow(
      '无法解析接收地址的域名 no-such-host.invalid',
    );
  });

  it('lets tests and LANs use http and private addresses when allowed', async () => {
    const open = new WebhookAddressRules({ allowHttp: true, allowPrivate: true });
    expect(() => open.check('http://127.0.0.1:8080/hook')).not.toThrow();
    expect(open.refusal('http://192.168.1.10/hook')).toBeNull();
    expect(
      await new WebhookAddressRules({ allowHttp: true, allowPrivate: true }, async () => [
        { address: '10.0.0.1', family: 4 },
      ]).addressesOf('nas.lan'),
    ).toEqual([{ address: '10.0.0.1', family: 4 }]);
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
