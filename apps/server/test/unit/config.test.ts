import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe('config: environment variables parsed once', () => {
  it('defaults to the embedded mode: port 3000, SQLite under ./data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.database).toEqual({ kind: 'sqlite', file: path.resolve('./data/huafang.db') });
    expect(config.admin).toEqual({ account: 'admin', password: undefined });
  });

  it('switches to PostgreSQL when DATABASE_URL is a postgres URL', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/huafang' });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/huafang' });
  });

  it('trusts X-Forwarded-For only when told to', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
  });

  it('reads the backend address rules and refuses malformed ones', () => {
    expect(loadConfig({}).backendAllowedHosts).toEqual([]);
    expect(
      loadConfig({ BACKEND_ALLOWED_HOSTS: ' GPU.lan, *.gpu.example.com,10.0.0.0/8,::1 ' }).backendAllowedHosts,
    ).toEqual(['gpu.lan', '*.gpu.example.com', '10.0.0.0/8', '::1']);
    for (const bad of ['10.0.0.0/33', 'gpu.lan/8', 'http://gpu.lan', 'a b']) {
      expect(() => loadConfig({ BACKEND_ALLOWED_HOSTS: bad }), bad).toThrow(/BACKEND_ALLOWED_HOSTS/);
    }
  });

  it('refuses bad values with a message naming the variable', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ LOG_LEVEL: 'loud' })).toThrow(/LOG_LEVEL/);
  });

  it('keeps Alipay off unless configured, and refuses a partial Alipay configuration naming each variable', () => {
    expect(loadConfig({}).payments.alipay).toBeNull();
    const secret = 'MIIEowIBAAKCAQEAsecretsecretsecret';
    let message = '';
    try {
      loadConfig({ ALIPAY_APP_ID: '2021000000000001', ALIPAY_PRIVATE_KEY: secret, ALIPAY_APP_CERT: '/x/app.crt' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('ALIPAY_ROOT_CERT: required in certificate mode');
    expect(message).toContain('ALIPAY_PUBLIC_CERT: required in certificate mode');
    expect(message).toContain('PUBLIC_BASE_URL: required when Alipay is enabled');
    expect(message).not.toContain(secret);
    expect(() => loadConfig({ ALIPAY_PUBLIC_KEY: 'MIIB' })).toThrow(/ALIPAY_APP_ID: required when Alipay is enabled/);
    const alipay = loadConfig({
      ALIPAY_APP_ID: '2021000000000001',
      ALIPAY_PRIVATE_KEY: secret,
      ALIPAY_PUBLIC_KEY: 'MIIBpublic',
      PUBLIC_BASE_URL: 'https://huafang.example.com',
    }).payments.alipay;
    expect(alipay).toMatchObject({
      appId: '2021000000000001',
      gateway: 'https://openapi.alipay.com/gateway.do',
      keys: { mode: 'key', alipayPublicKey: 'MIIBpublic' },
    });
  });

  it('bounds the login protection: at most 20 failures before the lock, a lock of at most a day', () => {
    expect(loadConfig({ LOGIN_MAX_FAILURES: '20', LOGIN_LOCK_MINUTES: '1440' }).loginGuard).toEqual({
      delayAfter: 5,
      maxFailures: 20,
      lockMs: 1440 * 60_000,
    });
    expect(() => loadConfig({ LOGIN_MAX_FAILURES: '47' })).toThrow(
      'LOGIN_MAX_FAILURES: 最多 20 次（连续失败这么多次后锁定账号）',
    );
    expect(() => loadConfig({ LOGIN_LOCK_MINUTES: '100000' })).toThrow('LOGIN_LOCK_MINUTES: 最长 1440 分钟（一天）');
  });
});

describe('config: production refuses placeholders and weak secrets', () => {
  const STRONG = 'f3a9c1d07be24e58a6c3d9e1b07f4a2c';
  const PRODUCTION = { NODE_ENV: 'production', AIGC_PRODUCER: '91110000MA01ABCDEF' };
  const refusal = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error(`accepted: ${JSON.stringify(env)}`);
  };
  /** Every secret the server reads, as a variable set to `value` (a password goes inside its URL). */
  const secretSlots = (value: string): Record<string, Record<string, string>> => {
    const encoded = encodeURIComponent(value);
    return {
      URL_SIGNING_SECRET: { URL_SIGNING_SECRET: value },
      ADMIN_PASSWORD: { ADMIN_PASSWORD: value },
      S3_SECRET_KEY: { S3_SECRET_KEY: value },
      SMS_ACCESS_KEY_SECRET: { SMS_ACCESS_KEY_SECRET: value },
      MODERATION_ACCESS_KEY_SECRET: { MODERATION_ACCESS_KEY_SECRET: value },
      TENCENT_SECRET_KEY: { TENCENT_SECRET_KEY: value },
      BAIDU_TRANSLATE_KEY: { BAIDU_TRANSLATE_KEY: value },
      TRANSLATE_API_KEY: { TRANSLATE_API_KEY: value },
      DATABASE_URL: { DATABASE_URL: `postgres://huafang:${encoded}@db:5432/huafang` },
      REDIS_URL: {
        DATABASE_URL: `postgres://huafang:${STRONG}@db:5432/huafang`,
        REDIS_URL: `redis://:${encoded}@redis:6379`,
      },
    };
  };

  it('the embedded default still starts with nothing set, and production with only the producer name', () => {
    expect(loadConfig({}).workUrls.secret).toBeUndefined();
    expect(loadConfig({}).aigcProducer).toBe('Huafang');
    // Unset, the signing secret is generated into the database, in production too.
    const production = loadConfig(PRODUCTION);
    expect(production.workUrls.secret).toBeUndefined();
    expect(production.aigcProducer).toBe('91110000MA01ABCDEF');
  });

  it("refuses the example's URL_SIGNING_SECRET and short ones, in Chinese and English", () => {
    const message = refusal({ ...PRODUCTION, URL_SIGNING_SECRET: 'CHANGE_ME_url_signing_secret_32_chars' });
    expect(message).toContain('URL_SIGNING_SECRET: 是占位符或太弱（生产环境至少 32 个字符');
    expect(message).toContain('URL_SIGNING_SECRET is a placeholder or too weak');
    expect(refusal({ ...PRODUCTION, URL_SIGNING_SECRET: 'x'.repeat(31) })).toMatch(
      /URL_SIGNING_SECRET.*至少 32 个字符/,
    );
    expect(loadConfig({ ...PRODUCTION, URL_SIGNING_SECRET: STRONG }).workUrls.secret).toBe(STRONG);
    // Outside production the old rule holds: 16 characters, placeholders tolerated on a developer's machine.
    expect(loadConfig({ URL_SIGNING_SECRET: 'CHANGE_ME_url_signing_secret_32_chars' }).workUrls.secret).toBeDefined();
    expect(() => loadConfig({ URL_SIGNING_SECRET: 'short' })).toThrow(/URL_SIGNING_SECRET/);
  });

  it('refuses a placeholder or example in every secret, but not the length of provider-issued keys', () => {
    for (const value of ['CHANGE_ME', 'CHANGE_ME_s3_secret_key', '换成强密码', 'changeme', 'Password']) {
      for (const [name, env] of Object.entries(secretSlots(value))) {
        const message = refusal({ ...PRODUCTION, ...env });
        expect(message, `${name}=${value}`).toMatch(
          new RegExp(`${name}: [^\\n]*(占位符|太弱)[^\\n]* / ${name} is a placeholder`),
        );
        // The refusal names the variable, never the value.
        if (value.length > 6) expect(message).not.toContain(value);
      }
    }
    // Aliyun and Tencent issue keys of their own formats: a short real-looking one passes.
    const issued = {
      S3_SECRET_KEY: 'k9Qz',
      SMS_ACCESS_KEY_SECRET: 'a1B2c3',
      MODERATION_ACCESS_KEY_SECRET: 'a1B2c3',
      TENCENT_SECRET_KEY: 'a1B2c3',
      BAIDU_TRANSLATE_KEY: 'a1B2c3',
      TRANSLATE_API_KEY: 'a1B2c3',
    };
    expect(() => loadConfig({ ...PRODUCTION, ...issued })).not.toThrow();
    // A database password is the operator's business (a managed database issues its own): only examples are refused.
    expect(loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://huafang:s3cr3tpw@db/huafang' }).database.kind).toBe(
      'postgres',
    );
    expect(loadConfig({ ...PRODUCTION, DATABASE_URL: 'postgres://huafang@db/huafang' }).database.kind).toBe('postgres');
  });

  it('refuses a weak ADMIN_PASSWORD in production; empty still generates one', () => {
    for (const weak of ['abc', 'abcdefghij', 'Admin12345', 'CHANGE_ME_admin_password']) {
      expect(refusal({ ...PRODUCTION, ADMIN_PASSWORD: weak }), weak).toMatch(
        /ADMIN_PASSWORD: 是占位符或太弱.* \/ ADMIN_PASSWORD is a placeholder or too weak/,
      );
    }
    expect(loadConfig({ ...PRODUCTION, ADMIN_PASSWORD: 'Zq7-huafang-2026' }).admin.password).toBe('Zq7-huafang-2026');
    expect(loadConfig({ ...PRODUCTION, ADMIN_PASSWORD: '' }).admin.password).toBeUndefined();
  });

  it('refuses a CHANGE_ME left in any variable, naming each', () => {
    const message = refusal({ ...PRODUCTION, S3_ACCESS_KEY: 'CHANGE_ME', SMS_SIGN_NAME: 'CHANGE_ME_sign' });
    expect(message).toContain('S3_ACCESS_KEY: 仍是占位符');
    expect(message).toContain('SMS_SIGN_NAME: 仍是占位符');
  });

  it('needs AIGC_PRODUCER in production, in the characters the label allows', () => {
    expect(refusal({ NODE_ENV: 'production' })).toContain(
      'AIGC_PRODUCER: 生产环境必须设置 AI 生成内容隐式标识的服务提供者名称或编码',
    );
    expect(refusal({ NODE_ENV: 'production' })).toContain('AIGC_PRODUCER is required in production');
    expect(refusal({ NODE_ENV: 'production', AIGC_PRODUCER: 'CHANGE_ME_producer' })).toContain(
      'AIGC_PRODUCER: 仍是占位符',
    );
    for (const bad of ['画坊科技', 'Huafang Ltd', 'x'.repeat(65)]) {
      expect(() => loadConfig({ AIGC_PRODUCER: bad }), bad).toThrow(/AIGC_PRODUCER/);
    }
    expect(loadConfig({ AIGC_PRODUCER: ' HF-OPERATOR-0001 ' }).aigcProducer).toBe('HF-OPERATOR-0001');
  });

  it('refuses every secret of deploy/.env.example as it stands, in every secret the server reads', () => {
    const example = readFileSync(path.resolve(import.meta.dirname, '../../../../deploy/.env.example'), 'utf8');
    const secrets = example
      .split('\n')
      .map((line) => /^\s*([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ key: match[1]!, value: match[2]!.trim().replace(/^(['"])(.*)\1$/, '$2') }))
      .filter(({ key, value }) => /PASSWORD|SECRET/.test(key) && value !== '');
    expect(secrets.map((s) => s.key)).toContain('URL_SIGNING_SECRET');
    for (const { key, value } of secrets) {
      for (const [name, env] of Object.entries(secretSlots(value))) {
        expect(refusal({ ...PRODUCTION, ...env }), `${key}'s example in ${name}`).toContain(`${name}: `);
      }
    }
  });
});
