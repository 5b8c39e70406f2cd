import { createPrivateKey, createPublicKey, createSecretKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * WeChat Pay (API v3) from the environment. Off while none of its credentials is set; once one is, every one it
 * needs must be, or the server refuses to start with a line naming each missing or unusable variable. Keys are
 * parsed here into KeyObjects (which print as `{}`) and no message ever quotes a value.
 */

/** An empty value counts as unset. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);
const optionalUrl = optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL');

const wechatPayEnvSchema = z.object({
  WECHATPAY_MCH_ID: optionalText,
  WECHATPAY_APP_ID: optionalText,
  WECHATPAY_API_V3_KEY: optionalText,
  WECHATPAY_PRIVATE_KEY: optionalText,
  WECHATPAY_CERT_SERIAL: optionalText,
  WECHATPAY_PUBLIC_KEY: optionalText,
  WECHATPAY_PUBLIC_KEY_ID: optionalText,
  WECHATPAY_PLATFORM_CERT: optionalText,
  WECHATPAY_MP_APP_ID: optionalText,
  WECHATPAY_MP_APP_SECRET: optionalText,
  WECHATPAY_BASE_URL: optionalUrl,
  WECHATPAY_MP_API_BASE_URL: optionalUrl,
  WECHATPAY_MP_AUTHORIZE_BASE_URL: optionalUrl,
  WECHATPAY_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
});
type WechatPayEnv = z.infer<typeof wechatPayEnvSchema>;

/** Any of these set means the operator meant to turn WeChat Pay on. */
const CREDENTIALS = [
  'WECHATPAY_MCH_ID',
  'WECHATPAY_APP_ID',
  'WECHATPAY_API_V3_KEY',
  'WECHATPAY_PRIVATE_KEY',
  'WECHATPAY_CERT_SERIAL',
  'WECHATPAY_PUBLIC_KEY',
  'WECHATPAY_PUBLIC_KEY_ID',
  'WECHATPAY_PLATFORM_CERT',
  'WECHATPAY_MP_APP_ID',
  'WECHATPAY_MP_APP_SECRET',
] as const;
const REQUIRED = [
  'WECHATPAY_MCH_ID',
  'WECHATPAY_APP_ID',
  'WECHATPAY_API_V3_KEY',
  'WECHATPAY_PRIVATE_KEY',
  'WECHATPAY_CERT_SERIAL',
] as const;

/** The official account (公众号) that JSAPI pays through, and where its OAuth step (snsapi_base) happens. */
export type WechatOfficialAccount = {
  appId: string;
  appSecret: string;
  /** https://api.weixin.qq.com: the code → openid exchange. */
  apiBaseUrl: string;
  /** https://open.weixin.qq.com: the authorize page the buyer's WeChat browser is sent to. */
  authorizeBaseUrl: string;
};

export type WechatPayConfig = {
  /** 商户号 */
  merchantId: string;
  /** The app id bound to the merchant for Native and H5 (a 公众号, 小程序 or 移动应用 app id). */
  appId: string;
  /** Set when JSAPI (paying inside WeChat) is on. */
  officialAccount: WechatOfficialAccount | undefined;
  /** APIv3 密钥: decrypts notification resources (AEAD_AES_256_GCM). */
  apiV3Key: KeyObject;
  /** 商户 API 私钥: signs every request and JSAPI's paySign. */
  privateKey: KeyObject;
  /** 商户 API 证书序列号, sent as serial_no in each request's Authorization. */
  certSerial: string;
  /**
   * What WeChat Pay signs answers and notifications with, by the Wechatpay-Serial naming it: the WeChat Pay public
   * key by its id (PUB_KEY_ID_…), and/or each platform certificate by its serial (both while a merchant moves over).
   */
  verifiers: Record<string, KeyObject>;
  baseUrl: string;
  timeoutMs: number;
};

/** A PEM given inline (`\n` escapes allowed, for one-line .env files) or as the path of a file holding it. */
function pemFrom(value: string): string {
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  return readFileSync(value, 'utf8');
}

/** Runs `parse`, or records a problem naming `name` (never its value, which may be a key). */
function parsed<T>(problems: string[], name: string, what: string, parse: () => T): T | undefined {
  try {
    return parse();
  } catch {
    problems.push(`${name}: ${what}（微信支付：无法读取此变量，值不在此显示）`);
    return undefined;
  }
}

function platformCertificates(pem: string): Record<string, KeyObject> {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new Error('no certificate');
  return Object.fromEntries(
    blocks.map((block) => {
      const cert = new X509Certificate(block);
      return [cert.serialNumber.toUpperCase(), cert.publicKey];
    }),
  );
}

function read(e: WechatPayEnv): { problems: string[]; config?: WechatPayConfig } {
  const problems = REQUIRED.filter((name) => !e[name]).map(
    (name) => `${name}: required when WeChat Pay is configured（微信支付缺少此变量）`,
  );
  const publicKeyMode = Boolean(e.WECHATPAY_PUBLIC_KEY || e.WECHATPAY_PUBLIC_KEY_ID);
  if (publicKeyMode) {
    for (const name of ['WECHATPAY_PUBLIC_KEY', 'WECHATPAY_PUBLIC_KEY_ID'] as const) {
      if (!e[name])
        problems.push(`${name}: required with the other WeChat Pay public key variable（微信支付公钥模式缺少此变量）`);
    }
  } else if (!e.WECHATPAY_PLATFORM_CERT) {
    problems.push(
      'WECHATPAY_PUBLIC_KEY: WECHATPAY_PUBLIC_KEY with WECHATPAY_PUBLIC_KEY_ID (微信支付公钥), or WECHATPAY_PLATFORM_CERT (平台证书), is required（微信支付需要其一来验证应答与通知的签名）',
    );
  }
  if (e.WECHATPAY_PUBLIC_KEY_ID && !e.WECHATPAY_PUBLIC_KEY_ID.startsWith('PUB_KEY_ID_')) {
    problems.push('WECHATPAY_PUBLIC_KEY_ID: must start with PUB_KEY_ID_（商户平台 → 账户中心 → API安全 中的公钥ID）');
  }
  for (const [name, other] of [
    ['WECHATPAY_MP_APP_ID', 'WECHATPAY_MP_APP_SECRET'],
    ['WECHATPAY_MP_APP_SECRET', 'WECHATPAY_MP_APP_ID'],
  ] as const) {
    if (e[other] && !e[name]) problems.push(`${name}: required with ${other} for JSAPI（公众号支付缺少此变量）`);
  }
  if (e.WECHATPAY_API_V3_KEY && Buffer.byteLength(e.WECHATPAY_API_V3_KEY) !== 32) {
    problems.push('WECHATPAY_API_V3_KEY: must be 32 bytes（APIv3 密钥为 32 位，值不在此显示）');
  }
  if (e.WECHATPAY_CERT_SERIAL && !/^[0-9A-Fa-f]+$/.test(e.WECHATPAY_CERT_SERIAL)) {
    problems.push(
      'WECHATPAY_CERT_SERIAL: must be the hexadecimal serial of the merchant API certificate（商户API证书序列号）',
    );
  }
  const privateKey =
    e.WECHATPAY_PRIVATE_KEY &&
    parsed(
      problems,
      'WECHATPAY_PRIVATE_KEY',
      'not an RSA private key (PEM text or the path of apiclient_key.pem)',
      () => {
        const key = createPrivateKey(pemFrom(e.WECHATPAY_PRIVATE_KEY!));
        if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
        return key;
      },
    );
  const verifiers: Record<string, KeyObject> = {};
  if (e.WECHATPAY_PUBLIC_KEY && e.WECHATPAY_PUBLIC_KEY_ID) {
    const key = parsed(problems, 'WECHATPAY_PUBLIC_KEY', 'not a public key (PEM text or the path of pub_key.pem)', () =>
      createPublicKey(pemFrom(e.WECHATPAY_PUBLIC_KEY!)),
    );
    if (key) verifiers[e.WECHATPAY_PUBLIC_KEY_ID] = key;
  }
  if (e.WECHATPAY_PLATFORM_CERT) {
    const certs = parsed(
      problems,
      'WECHATPAY_PLATFORM_CERT',
      'not a certificate (PEM text, one or more certificates, or the path of a file holding them)',
      () => platformCertificates(pemFrom(e.WECHATPAY_PLATFORM_CERT!)),
    );
    Object.assign(verifiers, certs);
  }
  if (problems.length > 0 || !privateKey) return { problems };
  const officialAccount =
    e.WECHATPAY_MP_APP_ID && e.WECHATPAY_MP_APP_SECRET
      ? {
          appId: e.WECHATPAY_MP_APP_ID,
          appSecret: e.WECHATPAY_MP_APP_SECRET,
          apiBaseUrl: (e.WECHATPAY_MP_API_BASE_URL ?? 'https://api.weixin.qq.com').replace(/\/+$/, ''),
          authorizeBaseUrl: (e.WECHATPAY_MP_AUTHORIZE_BASE_URL ?? 'https://open.weixin.qq.com').replace(/\/+$/, ''),
        }
      : undefined;
  return {
    problems,
    config: {
      merchantId: e.WECHATPAY_MCH_ID!,
      appId: e.WECHATPAY_APP_ID!,
      officialAccount,
      apiV3Key: createSecretKey(Buffer.from(e.WECHATPAY_API_V3_KEY!)),
      privateKey,
      certSerial: e.WECHATPAY_CERT_SERIAL!.toUpperCase(),
      verifiers,
      baseUrl: (e.WECHATPAY_BASE_URL ?? 'https://api.mch.weixin.qq.com').replace(/\/+$/, ''),
      timeoutMs: Math.round(e.WECHATPAY_TIMEOUT_SECONDS * 1000),
    },
  };
}

/**
 * The WeChat Pay settings, or undefined when none of its credentials is set. Throws `Invalid configuration:` with
 * one line per missing or unusable variable, in the form loadConfig uses.
 */
export function loadWechatPayConfig(env: NodeJS.ProcessEnv): WechatPayConfig | undefined {
  const result = wechatPayEnvSchema.safeParse(env);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  if (result.success && CREDENTIALS.every((name) => !result.data[name])) return undefined;
  const { problems: more, config } = result.success ? read(result.data) : { problems: [], config: undefined };
  problems.push(...more);
  if (problems.length > 0 || !config) {
    throw new Error(`Invalid configuration:\n${problems.map((line) => `  ${line}`).join('\n')}`);
  }
  return config;
}
