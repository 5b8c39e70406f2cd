import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

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
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
  LOGIN_LOCK_MINUTES: z.coerce.number().positive().default(15),
  SMS_PROVIDER: z.enum(['console']).default('console'),
  SMS_RESEND_SECONDS: z.coerce.number().int().min(1).default(60),
  SEED_DEMO: bool.default(true),
  QUEUE_MAX_RUNNING_PER_USER: z.coerce.number().int().min(1).default(1),
  QUEUE_MAX_QUEUED_PER_USER: z.coerce.number().int().min(1).default(5),
  JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().min(0).default(20),
  BACKEND_HEALTH_SECONDS: z.coerce.number().int().min(5).default(30),
  URL_SIGNING_SECRET: z.string().min(16, 'URL_SIGNING_SECRET must be at least 16 characters').optional(),
  WORK_URL_TTL_HOURS: z.coerce.number().positive().default(12),
  TRUST_PROXY: bool.default(false),
  WEB_DIST_DIR: z.string().optional(),
  TRANSLATE_PROVIDER: z.enum(['dictionary', 'libretranslate', 'baidu', 'tencent']).default('dictionary'),
  TRANSLATE_URL: optionalText.refine((v) => v === undefined || /^https?:\/\/\S+$/.test(v), 'must be an http(s) URL'),
  TRANSLATE_API_KEY: optionalText,
  BAIDU_TRANSLATE_APPID: optionalText,
  BAIDU_TRANSLATE_KEY: optionalText,
  TENCENT_SECRET_ID: optionalText,
  TENCENT_SECRET_KEY: optionalText,
  TENCENT_REGION: z.string().min(1).default('ap-shanghai'),
  RATE_LIMIT_TRANSLATE: z.coerce.number().int().positive().default(60),
  NODE_ENV: z.string().optional(),
  API_DOCS: bool,
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().default(60),
  BACKEND_ALLOWED_HOSTS: optionalText.refine(
    (v) => v === undefined || v.split(',').every((rule) => isHostRule(rule.trim())),
    'must be comma-separated host names, *.domain patterns, IP addresses or CIDR ranges',
  ),
});

/** Each external translation provider and the variables it cannot start without. */
const credentialsOfProvider = {
  dictionary: [],
  libretranslate: ['TRANSLATE_URL'],
  baidu: ['BAIDU_TRANSLATE_APPID', 'BAIDU_TRANSLATE_KEY'],
  tencent: ['TENCENT_SECRET_ID', 'TENCENT_SECRET_KEY'],
} as const satisfies Record<string, (keyof z.infer<typeof envSchema>)[]>;

export type TranslateProviderConfig =
  | { kind: 'dictionary' }
  | { kind: 'libretranslate'; url: string; apiKey: string | undefined }
  | { kind: 'baidu'; appId: string; key: string }
  | { kind: 'tencent'; secretId: string; secretKey: string; region: string };

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
  smsProvider: 'console';
  /** At most one code per mobile in this interval. */
  smsResendMs: number;
  seedDemo: boolean;
  queue: { maxRunningPerUser: number; maxQueuedPerUser: number; maxAttempts: number };
  /** On a stop signal, how long running jobs may take to finish before they stop and continue after the restart. */
  shutdownGraceMs: number;
  backendHealthMs: number;
  /** Links to private work images: the HMAC secret (generated and kept in the database when absent) and lifetime. */
  workUrls: { secret: string | undefined; ttlMs: number };
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  trustProxy: boolean;
  webDistDir: string;
  /** POST /api/translate/zh2en: the offline dictionary or an external provider; requests per minute per user. */
  translate: { provider: TranslateProviderConfig; perUserPerMinute: number };
  /** Swagger UI and /api/docs/json: on by default, off when NODE_ENV=production unless API_DOCS=true. */
  apiDocs: boolean;
  /** A request (headers and body) must arrive within this time, or its connection is closed. */
  requestTimeoutMs: number;
  /** Host names, IPs, CIDR ranges or `*.domain` patterns backends may point at; empty = any. */
  backendAllowedHosts: string[];
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
    smsProvider: e.SMS_PROVIDER,
    smsResendMs: e.SMS_RESEND_SECONDS * 1000,
    seedDemo: e.SEED_DEMO,
    queue: {
      maxRunningPerUser: e.QUEUE_MAX_RUNNING_PER_USER,
      maxQueuedPerUser: e.QUEUE_MAX_QUEUED_PER_USER,
      maxAttempts: e.JOB_MAX_ATTEMPTS,
    },
    shutdownGraceMs: e.SHUTDOWN_GRACE_SECONDS * 1000,
    backendHealthMs: e.BACKEND_HEALTH_SECONDS * 1000,
    workUrls: { secret: e.URL_SIGNING_SECRET, ttlMs: e.WORK_URL_TTL_HOURS * 3600_000 },
    trustProxy: e.TRUST_PROXY,
    webDistDir: path.resolve(e.WEB_DIST_DIR ?? path.join(import.meta.dirname, '../../web/dist')),
    translate: { provider: translateProvider(e), perUserPerMinute: e.RATE_LIMIT_TRANSLATE },
    apiDocs: e.API_DOCS ?? e.NODE_ENV !== 'production',
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    backendAllowedHosts: (e.BACKEND_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((host) => host.trim().toLowerCase())
      .filter(Boolean),
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
  }
}
