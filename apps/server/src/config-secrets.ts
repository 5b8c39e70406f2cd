import { passwordSchema } from '@huafang/contracts';

/**
 * The secrets rules of the configuration: what NODE_ENV=production refuses to start with. Apart from config.ts,
 * whose schema reads the variables, so that each file holds one job.
 */

/** The parsed variables (config.ts's schema output) these rules read; any other one is looked at for CHANGE_ME. */
export type ConfigVariables = {
  readonly [name: string]: unknown;
  NODE_ENV?: string;
  URL_SIGNING_SECRET?: string;
  ADMIN_PASSWORD?: string;
  AIGC_PRODUCER?: string;
  DATABASE_URL?: string;
  REDIS_URL?: string;
};

/** Secrets the operator makes up (not issued by a provider): production wants at least this many characters. */
const CHOSEN_SECRET_MIN = 32;

/**
 * Values the deployment kit and the docs show as examples without the CHANGE_ME mark, and the weak values anyone
 * tries first: a secret left at one of them is public knowledge. Compared without case.
 */
const EXAMPLE_SECRETS = new Set([
  '换成强密码',
  'changeme',
  'change_me',
  'secret',
  'password',
  'admin',
  'admin123',
  'admin12345',
  '123456',
  '12345678',
]);

/** The kit's placeholders all carry this mark (deploy/.env.example, deploy/k8s/secret.yaml). */
const PLACEHOLDER_MARK = 'CHANGE_ME';
const isPlaceholder = (value: string) => value.includes(PLACEHOLDER_MARK) || EXAMPLE_SECRETS.has(value.toLowerCase());

/** Provider-issued keys (Aliyun, Tencent, Baidu, S3 services) have formats of their own: only placeholders count. */
const ISSUED_SECRETS = [
  'S3_SECRET_KEY',
  'SMS_ACCESS_KEY_SECRET',
  'MODERATION_ACCESS_KEY_SECRET',
  'TENCENT_SECRET_KEY',
  'BAIDU_TRANSLATE_KEY',
  'TRANSLATE_API_KEY',
  'TRANSLATE_LLM_API_KEY',
  'ALIPAY_PRIVATE_KEY',
] as const;

/** The password inside a postgres:// or redis:// URL, or undefined without one. */
function passwordInUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}

const placeholderText = (name: string) =>
  `仍是占位符或文档里的示例值，生产环境（NODE_ENV=production）拒绝启动，请换成自己的值 / ${name} is a placeholder or an example value; production refuses to start: set a value of your own`;

/** Outside production a signing secret needs 16 characters; production asks more (productionProblems). */
export function signingSecretProblems(e: ConfigVariables): string[] {
  const secret = e.URL_SIGNING_SECRET;
  return e.NODE_ENV !== 'production' && secret !== undefined && secret.length < 16
    ? ['URL_SIGNING_SECRET: must be at least 16 characters（签名密钥至少 16 个字符）']
    : [];
}

/**
 * NODE_ENV=production refuses what would run but must not: a forgotten CHANGE_ME in any variable, a secret left
 * at an example value, a made-up secret too short to resist guessing (private-image links signed with it could be
 * forged), and an AIGC label without the operator's own name. The embedded default (NODE_ENV unset) starts as is.
 */
export function productionProblems(e: ConfigVariables): string[] {
  if (e.NODE_ENV !== 'production') return [];
  const problems = new Map<string, string>();
  const signing = e.URL_SIGNING_SECRET;
  if (signing !== undefined && (isPlaceholder(signing) || signing.length < CHOSEN_SECRET_MIN)) {
    problems.set(
      'URL_SIGNING_SECRET',
      `是占位符或太弱（生产环境至少 ${CHOSEN_SECRET_MIN} 个字符，如 openssl rand -hex 32 生成的值；不设置则自动生成并存入数据库） / URL_SIGNING_SECRET is a placeholder or too weak (production needs at least ${CHOSEN_SECRET_MIN} random characters, e.g. openssl rand -hex 32; leave it unset to have one generated)`,
    );
  }
  const admin = e.ADMIN_PASSWORD;
  if (admin !== undefined && (isPlaceholder(admin) || !passwordSchema.safeParse(admin).success)) {
    problems.set(
      'ADMIN_PASSWORD',
      '是占位符或太弱（8–32 位，同时包含字母和数字，不能是示例值；留空则随机生成并在日志中打印一次） / ADMIN_PASSWORD is a placeholder or too weak (8–32 characters with letters and digits, not an example value; leave it empty to have one generated)',
    );
  }
  for (const name of ISSUED_SECRETS) {
    const value = e[name];
    if (typeof value === 'string' && isPlaceholder(value)) problems.set(name, placeholderText(name));
  }
  for (const name of ['DATABASE_URL', 'REDIS_URL'] as const) {
    const password = passwordInUrl(e[name]);
    if (password !== undefined && isPlaceholder(password)) problems.set(name, placeholderText(name));
  }
  for (const [name, value] of Object.entries(e)) {
    if (typeof value === 'string' && value.includes(PLACEHOLDER_MARK) && !problems.has(name)) {
      problems.set(name, placeholderText(name));
    }
  }
  if (e.AIGC_PRODUCER === undefined) {
    problems.set(
      'AIGC_PRODUCER',
      "生产环境必须设置 AI 生成内容隐式标识的服务提供者名称或编码（ContentProducer，如统一社会信用代码） / AIGC_PRODUCER is required in production: the operator's name or code written into the AIGC label of every image",
    );
  }
  return [...problems].map(([name, text]) => `${name}: ${text}`);
}
