import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config.js';
import { createTestApp, loginAdmin, registerUser, type TestApp, type TestUser } from './test-app.js';

type RegisterOptions = NonNullable<Parameters<typeof registerUser>[1]>;

/** What a test file works with: its app, the admin's token when asked for, and each user it named. */
export type TestFileApp<Name extends string, WithAdmin extends boolean> = { app: TestApp } & Record<Name, TestUser> &
  (WithAdmin extends true ? { admin: string } : unknown);

/**
 * The set-up most server test files share: in beforeAll a fresh app (createTestApp with `config`, given as a
 * function when it needs what an earlier hook started), the admin logged in when `admin` is set, then the named
 * users registered in order (as a record, each with its registration options); in afterAll the app closed.
 * The fields are filled once beforeAll ran, so read them inside hooks and tests; a test may replace them.
 */
export function useTestApp<const Name extends string = never, const WithAdmin extends boolean = false>(
  options: {
    config?: Partial<Config> | (() => Partial<Config>);
    admin?: WithAdmin;
    users?: readonly Name[] | Record<Name, RegisterOptions>;
  } = {},
): TestFileApp<Name, WithAdmin> {
  const ctx = {} as { app: TestApp; admin: string } & Record<Name, TestUser>;
  const users: [Name, RegisterOptions][] = Array.isArray(options.users)
    ? options.users.map((name) => [name, {}])
    : (Object.entries(options.users ?? {}) as [Name, RegisterOptions][]);
  beforeAll(async () => {
    ctx.app = await createTestApp(typeof options.config === 'function' ? options.config() : options.config);
    if (options.admin) ctx.admin = await loginAdmin(ctx.app);
    for (const [name, registration] of users) {
      (ctx as Record<Name, TestUser>)[name] = await registerUser(ctx.app, registration);
    }
  });
  afterAll(() => ctx.app?.close());
  return ctx;
}
