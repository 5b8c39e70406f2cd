import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { complianceSettingsSchema, DEFAULT_COMPLIANCE_SETTINGS, DEFAULT_DISPLAY_TIME_ZONE } from '@huafang/contracts';
import { z } from 'zod';
import { productionProblems, signingSecretProblems } from './config-secrets.js';
import { loadWechatPayConfig, type WechatPayConfig } from './features/payments/wechatpay-config.js';
import { isTimeZone } from './platform/time-zone.js';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();
/** An empty value counts as unset. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined);

/** One BACKEND_ALLOWED_HOSTS entry: a host name, `*.domain`, an IP address or a CIDR range. */
function isHostRule(rule: string): boolean {
  const [address = '', prefix, extra] = rule.split('/');
  const family = isIP(address);
  if (prefix !== undefined) {
    const bits = Number(prefix);
    return extra === undefined && family !== 0 && /^\d+$/.test(prefix) && bits <= (family === 6 ? 128 : 32);
  }
  return family !== 0 || /^(\*\.)?[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(rule);
}

/** Every environment variable the server reads, parsed once. README.md § 配置 lists them all. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  ADMIN_ACCOUNT: z.string().default('admin'),
  // An empty value counts as unset, so `ADMIN_PASSWORD=` still generates one.
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => v || undefined),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TOKEN_TTL_HOURS: z.coerce
    .number()
    .positive()
    .default(24 * 7),
  NEW_USER_CREDITS: z.coerce.number().int().min(0).default(100),
  UPLOAD_MAX_MB: z.coerce.number().positive().default(10),
  RATE_LIMIT_LOGIN: z.coerce.number().int().positive().default(20),
  RATE_LIMIT_SEND_CODE: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_SIGN_UP: z.coerce.number().int().positive().default(10),
  LOGIN_DELAY_AFTER_FAILURES: z.coerce.number().int().min(1).default(5),
  // More tries than this protect nothing; the bound also keeps the doubling slow-down within dates (login-guard).
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).max(20, '最多 20 次（连续失败这么多次后锁定账号）').default(10),
  LOGIN_LOCK_MINUTES: z.coerce.number().positive().max(1440, '最长 1440 分钟（一天）').default(15),
  SMS_PROVIDER: z.enum(['console', 'aliyun', 'tencent']).default('console'),
  SMS_RESEND_SECONDS: z.coerce.number().int().min(1).default(60),
  SMS_ACCESS_KEY_ID: optionalText,
  SMS_ACCESS_KEY_SECRET: optionalText,
  SMS_SIGN_NAME: optionalText,
  SMS_TEMPLATE_CODE: optionalText,
  SMS_SDK_APP_ID: optionalText,
  SMS_REGION: optionalText,
  SMS_ENDPOINT: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL'),
  SMS_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(5),
  MODERATION_PROVIDER: z.enum(['none', 'tencent', 'aliyun']).default('none'),
  MODERATION_ACCESS_KEY_ID: optionalText,
  MODERATION_ACCESS_KEY_SECRET: optionalText,
  MODERATION_REGION: optionalText,
  MODERATION_ENDPOINT: optionalText.refine(
    (v) => v === undefined || /^https?:\/\/\S+$/.test(v),
    'must be an http(s) URL',
  ),
  MODERATION_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
  PUBLIC_BASE_URL: optionalText.refine(
    (v) => v === undefined || /^https?:\/\/[^\s?#]+$/.test(v),
    'must be an http(s) URL without query or fragment, e.g. https://huafang.example.com',
  ),
  SEED_DEMO: bool.default(true),
  QUEUE_MAX_RUNNING_PER_USER: z.coerce.number().int().min(1).default(1),
  QUEUE_MAX_QUEUED_PER_USER: z.coerce.number().int().min(1).default(5),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(20),
  BACKEND_HEALTH_SECONDS: z.coerce.number().int().min(5).default(30),
  BACKEND_TIMEOUT_SECONDS: z.coerce.number().positive().default(600),
  // At least 16 characters, 32 in production: checked after parsing (signingSecretProblems), so production names the
  // stricter rule.
  URL_SIGNING_SECRET: z.string().optional(),
  WORK_URL_TTL_HOURS: z.coerce.number().positive().default(12),
  TRUST_PROXY: bool.default(false),
  WEB_DIST_DIR: z.string().optional(),
  TRANSLATE_PROVIDER: z.enum(['dictionary', 'libretranslate', 'baidu', 'tencent', 'llm']).default('dictionary'),
  TRANSLATE_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL'),
  TRANSLATE_API_KEY: optionalText,
  BAIDU_TRANSLATE_APPID: optionalText,
  BAIDU_TRANSLATE_KEY: optionalText,
  TENCENT_SECRET_ID: optionalText,
  TENCENT_SECRET_KEY: optionalText,
  TENCENT_REGION: z.string().min(1).default('ap-shanghai'),
  // An OpenAI-compatible chat-completions API (DeepSeek, DashScope compatible mode, vLLM, Ollama).
  TRANSLATE_LLM_BASE_URL: optionalText.refine(
    (v) => v === undefined || /^https?:\/\/\S+$/.test(v),
    'must be an http(s) URL',
  ),
  TRANSLATE_LLM_API_KEY: optionalText,
  TRANSLATE_LLM_MODEL: optionalText,
  TRANSLATE_LLM_TIMEOUT_SECONDS: z.coerce.number().positive().max(120).default(15),
  RATE_LIMIT_TRANSLATE: z.coerce.number().int().positive().default(60),
  RATE_LIMIT_API_KEY: z.coerce.number().int().positive().default(120),
  WEBHOOK_ALLOW_HTTP: bool.default(false),
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(60).default(10),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(6),
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().positive().default(10),
  RATE_LIMIT_WEBHOOK_TEST: z.coerce.number().int().positive().default(5),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).default(180),
  DISPLAY_TIME_ZONE: z
    .string()
    .trim()
    .refine(isTimeZone, 'must be an IANA time zone such as Asia/Shanghai')
    .default(DEFAULT_DISPLAY_TIME_ZONE),
  NODE_ENV: z.string().optional(),
  API_DOCS: bool,
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
  REDIS_URL: optionalText.refine((v) => v === undefined || /^rediss?:\/\/\S+$/.test(v), 'must be a redis:// URL'),
  REDIS_PREFIX: z
    .string()
    .regex(/^[a-z0-9_-]{1,40}$/i, 'letters, digits, _ and - only')
    .default('huafang'),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  JOB_LOCK_SECONDS: z.coerce.number().int().min(2).max(600).default(30),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL'),
  S3_BUCKET: optionalText,
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY: optionalText,
  S3_SECRET_KEY: optionalText,
  S3_FORCE_PATH_STYLE: bool.default(false),
  BACKEND_ALLOWED_HOSTS: optionalText.refine(
    (v) => v === undefined || v.split(',').every((rule) => isHostRule(rule.trim())),
    'must be comma-separated host names, *.domain patterns, IP addresses or CIDR ranges',
  ),
  PAYMENT_ORDER_TTL_MINUTES: z.coerce.number().int().min(1).max(120).default(15),
  // Alipay (docs/payments.md): on when ALIPAY_APP_ID is set. Keys are PEM text or the bare base64 body; certificates
  // are PEM text or a file path.
  ALIPAY_APP_ID: optionalText,
  ALIPAY_PRIVATE_KEY: optionalText,
  ALIPAY_PUBLIC_KEY: optionalText,
  ALIPAY_APP_CERT: optionalText,
  ALIPAY_ROOT_CERT: optionalText,
  ALIPAY_PUBLIC_CERT: optionalText,
  ALIPAY_SELLER_ID: optionalText.refine((v) => v === undefined || /^2088\d{12}$/.test(v), 'must be a 2088… PID'),
  ALIPAY_GATEWAY: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL'),
  // The label's own rule, the one 合规设置 applies to the same value.
  AIGC_PRODUCER: optionalText.pipe(complianceSettingsSchema.shape.producer.optional()),
});

/** The names of every variable above, for checks of the deployment files (deploy/). */
export const configVariableNames = Object.keys(envSchema.shape);

/** Each external translation provider and the variables it cannot start without. */
const credentialsOfProvider = {
  dictionary: [],
  libretranslate: ['TRANSLATE_URL'],
  baidu: ['BAIDU_TRANSLATE_APPID', 'BAIDU_TRANSLATE_KEY'],
  tencent: ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY'],
  // A local vLLM or Ollama needs no key.
  llm: ['TRANSLATE_LLM_BASE_URL', 'TRANSLATE_LLM_MODEL'],
} as const satisfies Record<string, (keyof z.infer<typeof envSchema>)[]>;

/** Each real SMS gateway and the variables it cannot start without. */
const credentialsOfSmsGateway = {
  aliyun: ['SMS_ACCESS_KEY_ID', 'SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_CODE'],
  tencent: ['SMS_ACCESS_KEY_ID', 'SMS_ACCESS_KEY_SECRET', 'SMS_SIGN_NAME', 'SMS_TEMPLATE_CODE', 'SMS_SDK_APP_ID'],
} as const satisfies Record<string, (keyof z.infer<typeof envSchema>)[]>;

/** Where each gateway sends from when SMS_REGION is unset. */
const defaultSmsRegion = { aliyun: 'cn-hangzhou', tencent: 'ap-guangzhou' } as const;

/** How to reach an Aliyun or Tencent Cloud API: the key pair, the region and how long one call may take. */
type CloudApiAccess = {
  accessKeyId: string;
  accessKeySecret: string;
  region: string;
  /** An http(s) URL in place of the provider's public HTTPS endpoint (tests point it at a local double). */
  endpoint: string | undefined;
  timeoutMs: number;
};

/**
 * A real SMS gateway: how to reach it, the approved signature (签名) and template. A send that takes longer
 * than `timeoutMs` counts as failed.
 */
export type SmsGatewayConfig = CloudApiAccess & {
  signName: string;
  /** Aliyun: the template code (SMS_…); Tencent: the numeric template id. */
  templateCode: string;
};

export type SmsConfig =
  | { kind: 'console' }
  | ({ kind: 'aliyun' } & SmsGatewayConfig)
  | ({ kind: 'tencent'; sdkAppId: string } & SmsGatewayConfig);

/**
 * A content-safety provider and how to reach it (docs/compliance.md § 内容审核). For Tencent `{service}` in
 * `endpoint` becomes tms or ims; unset for Aliyun it is https://green-cip.<region>.aliyuncs.com. A check that
 * takes longer than `timeoutMs` refuses publication (fail closed).
 */
export type ModerationGatewayConfig = CloudApiAccess;

export type ModerationConfig =
  | { kind: 'none' }
  | ({ kind: 'tencent' } & ModerationGatewayConfig)
  | ({ kind: 'aliyun' } & ModerationGatewayConfig);

export type TranslateProviderConfig =
  | { kind: 'dictionary' }
  | { kind: 'libretranslate'; url: string; apiKey: string | undefined }
  | { kind: 'baidu'; appId: string; key: string }
  | { kind: 'tencent'; secretId: string; secretKey: string; region: string }
  | { kind: 'llm'; baseUrl: string; apiKey: string | undefined; model: string; timeoutMs: number };

export type StorageConfig =
  | { kind: 'local'; root: string }
  | {
      kind: 's3';
      /** Absent: AWS itself; set for MinIO, Aliyun OSS, Tencent COS or any S3-compatible server. */
      endpoint: string | undefined;
      bucket: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
      /** MinIO and most self-hosted servers want `endpoint/bucket/key` rather than `bucket.endpoint/key`. */
      forcePathStyle: boolean;
    };

/** Alipay's open platform app (docs/payments.md § 支付宝): public-key mode or certificate mode. */
export type AlipayConfig = {
  appId: string;
  privateKey: string;
  /** The merchant's PID (2088…): a notification for another seller is refused when set. */
  sellerId: string | undefined;
  /** Alipay's gateway (https://openapi.alipay.com/gateway.do); tests point it at a double. */
  gateway: string;
  keys:
    | { mode: 'key'; alipayPublicKey: string }
    | { mode: 'cert'; appCert: string; rootCert: string; publicCert: string };
};

export type PaymentsConfig = {
  /** An unpaid order closes (here and at the channel) after this long. */
  orderTtlMs: number;
  /** Where the channels send notifications and buyers come back to: PUBLIC_BASE_URL. */
  publicBaseUrl: string | undefined;
  alipay: AlipayConfig | null;
  /** WeChat Pay API v3 (docs/payments.md § 微信支付): on when any of its credentials is set. */
  wechatPay?: WechatPayConfig;
};

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  admin: { account: string; password: string | undefined };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  tokenTtlMs: number;
  newUserCredits: number;
  uploadMaxBytes: number;
  /** Requests per minute per client address. */
  rateLimit: { login: number; sendCode: number; signUp: number };
  /** Per account (and per mobile for SMS codes): consecutive failures before slowing down and before a lock. */
  loginGuard: { delayAfter: number; maxFailures: number; lockMs: number };
  /** Where verification codes go: the log (`console`) or a real gateway; docs/accounts.md § 短信通道. */
  sms: SmsConfig;
  /** At most one code per mobile in this interval. */
  smsResendMs: number;
  /** Checks of images and prompts before publication: off (`none`) or a provider; docs/compliance.md § 内容审核. */
  moderation: ModerationConfig;
  /**
   * PUBLIC_BASE_URL: the site's public origin (https://huafang.example.com, no trailing slash), for links a service
   * outside fetches: Aliyun image moderation takes a signed, expiring link to the original, not the bytes.
   */
  publicBaseUrl: string | undefined;
  /** DISPLAY_TIME_ZONE: the zone of every day and time the product shows (dates, file names, 数据看板 days). */
  displayTimeZone: string;
  seedDemo: boolean;
  queue: { maxRunningPerUser: number; maxQueuedPerUser: number; maxAttempts: number };
  /** On a stop signal, how long running jobs may take to finish before they stop and continue after the restart. */
  shutdownGraceMs: number;
  backendHealthMs: number;
  /**
   * How long a remote backend may stay silent on a job (A1111: the generation request; ComfyUI: the whole job)
   * before the job is taken from it and retried on another one.
   */
  backendTimeoutMs: number;
  /** Links to private work images: the HMAC secret (generated and kept in the database when absent) and lifetime. */
  workUrls: { secret: string | undefined; ttlMs: number };
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  webDistDir: string;
  /** POST /api/translate/zh2en: the offline dictionary or an external provider; requests per minute per user. */
  translate: { provider: TranslateProviderConfig; perUserPerMinute: number };
  /** Requests per minute one personal API key may make, over all API processes (docs/api.md). */
  apiKeys: { perMinute: number };
  /**
   * Webhook endpoints: plain http and private or loopback addresses are refused unless allowed (tests, a LAN);
   * each try waits timeoutMs; a failed delivery is tried maxAttempts times in all, the n-th retry
   * retryBaseMs × 6^(n-1) after the one before (10 s, 1 min, 6 min, 36 min, 3.6 h by default).
   */
  webhooks: { allowHttp: boolean; allowPrivate: boolean; timeoutMs: number; maxAttempts: number; retryBaseMs: number };
  /** 测试发送 requests per minute per user, over all API processes (each holds its request for up to 5 s). */
  webhookTests: { perUserPerMinute: number };
  /** The audit trail keeps entries this many days; a daily prune deletes older ones (docs/compliance.md § 日志). */
  audit: { retentionDays: number };
  /** Swagger UI and /api/docs/json: on by default, off when NODE_ENV=production unless API_DOCS=true. */
  apiDocs: boolean;
  /** A request (headers and body) must arrive within this time, or its connection is closed. */
  requestTimeoutMs: number;
  /** Host names, IPs, CIDR ranges or `*.domain` patterns backends may point at; empty = any. */
  backendAllowedHosts: string[];
  /**
   * Scale-out mode when set (PostgreSQL required): the queue, backend leases, progress, interrupts, session
   * revocations and rate limits go through Redis; `npm start` serves the API only and `npm run worker` runs jobs.
   */
  redisUrl: string | undefined;
  /** Starts every Redis key and BullMQ queue name, so several installations can share one Redis. */
  redisPrefix: string;
  /**
   * A worker process: jobs it runs at once (each still needs a free backend), its optional health port, and how
   * long a job (and its backend lease) stays claimed without the worker renewing it: a killed worker's job moves
   * to another worker after about this long.
   */
  worker: { concurrency: number; healthPort: number | undefined; lockMs: number };
  /**
   * AIGC_PRODUCER: ContentProducer of the implicit AIGC label, the operator's name or code, until an admin saves
   * another in 合规设置 (docs/compliance.md). Required in production; `Huafang` otherwise.
   */
  aigcProducer: string;
  storage: StorageConfig;
  payments: PaymentsConfig;
};

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const missing = credentialsOfProvider[e.TRANSLATE_PROVIDER].filter((name) => !e[name]);
  if (missing.length > 0) {
    const lines = missing.map((name) => `  ${name}: required when TRANSLATE_PROVIDER=${e.TRANSLATE_PROVIDER}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const wechatPay = loadWechatPayConfig(env);
  const refused = [
    ...(wechatPay && !e.PUBLIC_BASE_URL
      ? [
          'PUBLIC_BASE_URL: required when WeChat Pay is enabled（微信支付通知发往 PUBLIC_BASE_URL/api/pay/notify/wechat）',
        ]
      : []),
    ...scaleOutProblems(e),
    ...smsProblems(e),
    ...moderationProblems(e),
    ...alipayProblems(e),
    ...signingSecretProblems(e),
    ...productionProblems(e),
  ];
  if (refused.length > 0) throw new Error(`Invalid configuration:\n${refused.map((line) => `  ${line}`).join('\n')}`);
  const dataDir = path.resolve(e.DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'huafang.db') },
    admin: { account: e.ADMIN_ACCOUNT, password: e.ADMIN_PASSWORD },
    logLevel: e.LOG_LEVEL,
    tokenTtlMs: e.TOKEN_TTL_HOURS * 3600_000,
    newUserCredits: e.NEW_USER_CREDITS,
    uploadMaxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
    rateLimit: { login: e.RATE_LIMIT_LOGIN, sendCode: e.RATE_LIMIT_SEND_CODE, signUp: e.RATE_LIMIT_SIGN_UP },
    loginGuard: {
      delayAfter: e.LOGIN_DELAY_AFTER_FAILURES,
      maxFailures: e.LOGIN_MAX_FAILURES,
      lockMs: e.LOGIN_LOCK_MINUTES * 60_000,
    },
    sms: smsConfig(e),
    smsResendMs: e.SMS_RESEND_SECONDS * 1000,
    moderation: moderationConfig(e),
    publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    displayTimeZone: e.DISPLAY_TIME_ZONE,
    seedDemo: e.SEED_DEMO,
    queue: {
      maxRunningPerUser: e.QUEUE_MAX_RUNNING_PER_USER,
      maxQueuedPerUser: e.QUEUE_MAX_QUEUED_PER_USER,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    backendHealthMs: e.BACKEND_HEALTH_SECONDS * 1000,
    backendTimeoutMs: Math.round(e.BACKEND_TIMEOUT_SECONDS * 1000),
    workUrls: { secret: e.URL_SIGNING_SECRET, ttlMs: e.WORK_URL_TTL_HOURS * 3600_000 },
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    translate: { provider: translateProvider(e), perUserPerMinute: e.RATE_LIMIT_TRANSLATE },
    apiKeys: { perMinute: e.RATE_LIMIT_API_KEY },
    webhooks: {
      allowHttp: e.WEBHOOK_ALLOW_HTTP,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      timeoutMs: Math.round(e.WEBHOOK_TIMEOUT_SECONDS * 1000),
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      retryBaseMs: Math.round(e.WEBHOOK_RETRY_BASE_SECONDS * 1000),
    },
    webhookTests: { perUserPerMinute: e.RATE_LIMIT_WEBHOOK_TEST },
    audit: { retentionDays: e.AUDIT_RETENTION_DAYS },
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    backendAllowedHosts: (e.BACKEND_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    worker: { concurrency: e.WORKER_CONCURRENCY, healthPort: e.WORKER_HEALTH_PORT, lockMs: e.JOB_LOCK_SECONDS * 1000 },
    aigcProducer: e.AIGC_PRODUCER ?? DEFAULT_COMPLIANCE_SETTINGS.producer,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY!,
            secretAccessKey: e.S3_SECRET_KEY!,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
          }
        : { kind: 'local', root: path.join(dataDir, 'files') },
    payments: {
      orderTtlMs: e.PAYMENT_ORDER_TTL_MINUTES * 60_000,
      publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
      alipay: alipayConfig(e),
      wechatPay,
    },
  };
}

const ALIPAY_CERTS = ['ALIPAY_APP_CERT', 'ALIPAY_ROOT_CERT', 'ALIPAY_PUBLIC_CERT'] as const;
const ALIPAY_VARIABLES = ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY', 'ALIPAY_PUBLIC_KEY', ...ALIPAY_CERTS] as const;

/**
 * Alipay is on when any of its variables is set; then it needs the app id, the app's private key, Alipay's public
 * key or all three certificates, and the public address its notifications go to. Values are never echoed.
 */
function alipayProblems(e: z.infer<typeof envSchema>): string[] {
  if (!ALIPAY_VARIABLES.some((name) => e[name])) return [];
  const why = '（支付宝支付已启用，缺少此变量）';
  const problems: string[] = [];
  for (const name of ['ALIPAY_APP_ID', 'ALIPAY_PRIVATE_KEY'] as const) {
    if (!e[name]) problems.push(`${name}: required when Alipay is enabled${why}`);
  }
  const certs = ALIPAY_CERTS.filter((name) => e[name]);
  if (certs.length > 0 && certs.length < ALIPAY_CERTS.length) {
    for (const name of ALIPAY_CERTS.filter((n) => !e[n])) {
      problems.push(`${name}: required in certificate mode（证书模式需要应用公钥证书、支付宝根证书和支付宝公钥证书）`);
    }
  } else if (certs.length === 0 && !e.ALIPAY_PUBLIC_KEY) {
    problems.push(
      `ALIPAY_PUBLIC_KEY: required in public-key mode (or set ALIPAY_APP_CERT, ALIPAY_ROOT_CERT and ALIPAY_PUBLIC_CERT)${why}`,
    );
  }
  if (!e.PUBLIC_BASE_URL) {
    problems.push(
      'PUBLIC_BASE_URL: required when Alipay is enabled（支付宝异步通知发往 PUBLIC_BASE_URL/api/pay/notify/alipay）',
    );
  }
  return problems;
}

/** A certificate given as a path is read once here; PEM text is used as is. */
function pemOrFile(value: string): string {
  return value.includes('-----BEGIN') ? value.replace(/\\n/g, '\n') : readFileSync(value, 'utf8');
}

/** Only called after the check above, so the variables it needs are set. */
function alipayConfig(e: z.infer<typeof envSchema>): AlipayConfig | null {
  if (!e.ALIPAY_APP_ID) return null;
  return {
    appId: e.ALIPAY_APP_ID,
    privateKey: e.ALIPAY_PRIVATE_KEY!.replace(/\\n/g, '\n'),
    sellerId: e.ALIPAY_SELLER_ID,
    gateway: e.ALIPAY_GATEWAY ?? 'https://openapi.alipay.com/gateway.do',
    keys: e.ALIPAY_APP_CERT
      ? {
          mode: 'cert',
          appCert: pemOrFile(e.ALIPAY_APP_CERT),
          rootCert: pemOrFile(e.ALIPAY_ROOT_CERT!),
          publicCert: pemOrFile(e.ALIPAY_PUBLIC_CERT!),
        }
      : { mode: 'key', alipayPublicKey: e.ALIPAY_PUBLIC_KEY!.replace(/\\n/g, '\n') },
  };
}

/** Combinations that cannot work: scale-out needs a shared database, S3 needs its bucket and keys. */
function scaleOutProblems(e: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  if (e.REDIS_URL && !e.DATABASE_URL) {
    problems.push('REDIS_URL: 扩展模式需要 PostgreSQL，请同时设置 DATABASE_URL（SQLite 只能由一个进程使用）');
  }
  if (e.STORAGE === 's3') {
    for (const name of ['S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'] as const) {
      if (!e[name]) problems.push(`${name}: required when STORAGE=s3`);
    }
  }
  return problems;
}

/** A real SMS gateway without its keys, signature or template cannot send a single code: refuse to start. */
function smsProblems(e: z.infer<typeof envSchema>): string[] {
  if (e.SMS_PROVIDER === 'console') return [];
  return credentialsOfSmsGateway[e.SMS_PROVIDER]
    .filter((name) => !e[name])
    .map((name) => `${name}: required when SMS_PROVIDER=${e.SMS_PROVIDER}（短信通道 ${e.SMS_PROVIDER} 缺少此变量）`);
}

/** Only called after the check above, so the gateway's variables are set. */
function smsConfig(e: z.infer<typeof envSchema>): SmsConfig {
  if (e.SMS_PROVIDER === 'console') return { kind: 'console' };
  const gateway: SmsGatewayConfig = {
    accessKeyId: e.SMS_ACCESS_KEY_ID!,
    accessKeySecret: e.SMS_ACCESS_KEY_SECRET!,
    signName: e.SMS_SIGN_NAME!,
    templateCode: e.SMS_TEMPLATE_CODE!,
    region: e.SMS_REGION ?? defaultSmsRegion[e.SMS_PROVIDER],
    endpoint: e.SMS_ENDPOINT,
    timeoutMs: Math.round(e.SMS_TIMEOUT_SECONDS * 1000),
  };
  return e.SMS_PROVIDER === 'aliyun'
    ? { kind: 'aliyun', ...gateway }
    : { kind: 'tencent', sdkAppId: e.SMS_SDK_APP_ID!, ...gateway };
}

/**
 * A moderation provider without its keys cannot check anything, and publication would always fail: refuse. Aliyun
 * fetches the image by URL, so it also needs the site's public address.
 */
function moderationProblems(e: z.infer<typeof envSchema>): string[] {
  if (e.MODERATION_PROVIDER === 'none') return [];
  const problems = (['MODERATION_ACCESS_KEY_ID', 'MODERATION_ACCESS_KEY_SECRET'] as const)
    .filter((name) => !e[name])
    .map(
      (name) =>
        `${name}: required when MODERATION_PROVIDER=${e.MODERATION_PROVIDER}（内容审核 ${e.MODERATION_PROVIDER} 缺少此变量）`,
    );
  if (e.MODERATION_PROVIDER === 'aliyun' && !e.PUBLIC_BASE_URL) {
    problems.push(
      'PUBLIC_BASE_URL: required when MODERATION_PROVIDER=aliyun, which fetches images by link（阿里云图片审核按签名链接取图，需要站点的公网地址，如 https://huafang.example.com）',
    );
  }
  return problems;
}

/** Only called after the check above, so the provider's keys are set. */
function moderationConfig(e: z.infer<typeof envSchema>): ModerationConfig {
  if (e.MODERATION_PROVIDER === 'none') return { kind: 'none' };
  return {
    kind: e.MODERATION_PROVIDER,
    accessKeyId: e.MODERATION_ACCESS_KEY_ID!,
    accessKeySecret: e.MODERATION_ACCESS_KEY_SECRET!,
    region: e.MODERATION_REGION ?? (e.MODERATION_PROVIDER === 'aliyun' ? 'cn-shanghai' : 'ap-guangzhou'),
    endpoint: e.MODERATION_ENDPOINT,
    timeoutMs: Math.round(e.MODERATION_TIMEOUT_SECONDS * 1000),
  };
}

/** Only called after the credentials check above, so the provider's variables are set. */
function translateProvider(e: z.infer<typeof envSchema>): TranslateProviderConfig {
  switch (e.TRANSLATE_PROVIDER) {
    case 'dictionary':
      return { kind: 'dictionary' };
    case 'libretranslate':
      return { kind: 'libretranslate', url: e.TRANSLATE_URL!, apiKey: e.TRANSLATE_API_KEY };
    case 'baidu':
      return { kind: 'baidu', appId: e.BAIDU_TRANSLATE_APPID!, key: e.BAIDU_TRANSLATE_KEY! };
    case 'tencent':
      return {
        kind: 'tencent',
        secretId: e.TENCENT_SECRET_ID!,
        secretKey: e.TENCENT_SECRET_KEY!,
        region: e.TENCENT_REGION,
      };
    case 'llm':
      return {
        kind: 'llm',
        baseUrl: e.TRANSLATE_LLM_BASE_URL!,
        apiKey: e.TRANSLATE_LLM_API_KEY,
        model: e.TRANSLATE_LLM_MODEL!,
        timeoutMs: e.TRANSLATE_LLM_TIMEOUT_SECONDS * 1000,
      };
  }
}
