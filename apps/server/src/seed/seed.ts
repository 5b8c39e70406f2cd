import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { hashPassword } from '../platform/auth/password.js';
import type { Database } from '../platform/db/database.js';
import { newId, nowIso } from '../platform/ids.js';
import { createRepositories } from '../repositories.js';
import type { Services } from '../services.js';

export const DEMO_INVITE_CODE = 'HUAFANG2026';

/** Creates the first admin when there is none; a generated password is printed once, here. */
export async function ensureFirstAdmin(db: Database, config: Config, log: FastifyBaseLogger): Promise<void> {
  const { users } = createRepositories(db, config.database.kind);
  if ((await users.countAdmins()) > 0) return;
  const account = config.admin.account;
  const generated = config.admin.password === undefined;
  const password = config.admin.password ?? `Hf${randomBytes(9).toString('base64url')}9`;
  const passwordHash = await hashPassword(password);
  const now = nowIso();
  const existing = await users.findByAccount(account);
  if (existing) {
    await users.update(existing.id, { is_admin: 1, password_hash: passwordHash, updated_at: now });
  } else {
    await users.insert({
      id: newId(),
      account,
      mobile: null,
      password_hash: passwordHash,
      nickname: '管理员',
      avatar_file_id: null,
      is_admin: 1,
      invite_code_id: null,
      code_type: null,
      credits: config.newUserCredits,
      disabled: 0,
      created_at: now,
      updated_at: now,
    });
  }
  if (generated) {
    log.warn(`首个管理员已创建：账号 ${account}，密码 ${password}（只显示这一次，请登录后修改）`);
  } else {
    log.info(`首个管理员已创建：账号 ${account}`);
  }
}

/** Demo content of the embedded mode; idempotent, and never overwrites what admins changed. */
export async function seedDemoContent(services: Services): Promise<void> {
  await services.help.seedTypes();
  await services.prompts.seedLibrary();
  await services.tasks.seedDemo();
  await services.loras.seedDemo();
  await services.appConfig.seedAgreements();
  await services.combos.seedPlans();
  await services.sensitiveWords.seedDemo();
  await services.invites.seedDemo(DEMO_INVITE_CODE);
}
