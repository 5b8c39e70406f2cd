import { describe } from 'vitest';
import { postgresReachable, requireServices } from './services.js';
import { TEST_DB } from './test-app.js';

const problem = TEST_DB === 'postgres' ? await postgresReachable() : null;
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  console.warn(`[server-postgres] SKIPPED: ${problem}. Start PostgreSQL (or set TEST_DATABASE_URL) to run it.`);
}

/** describe() of a server suite: skipped with the line above only when PostgreSQL is missing on a dev machine. */
export const describeServer = problem ? describe.skip : describe;
