import { describe } from 'vitest';
import { postgresReachable, redisReachable, requireServices } from './services.js';
import { SCALE_OUT, TEST_DB } from './test-app.js';

const problem =
  (TEST_DB === 'postgres' ? await postgresReachable() : null) ?? (SCALE_OUT ? await redisReachable() : null);
if (problem) {
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${problem}`);
  const project = SCALE_OUT ? 'server-scaleout' : 'server-postgres';
  console.warn(
    `[${project}] SKIPPED: ${problem}. Start PostgreSQL and Redis (or set TEST_DATABASE_URL, TEST_REDIS_URL).`,
  );
}

/** describe() of a server suite: skipped with the line above only when PostgreSQL or Redis is missing on a dev machine. */
export const describeServer = problem ? describe.skip : describe;

/**
 * describe() of a scale-out suite (several API processes over PostgreSQL and Redis). It runs on the postgres project
 * only; a missing Redis fails it under REQUIRE_SERVICES=1 and on a dev machine skips it with one clear line.
 */
export async function describeScaleOut(): Promise<typeof describe | typeof describe.skip> {
  if (TEST_DB !== 'postgres' || problem) return describe.skip;
  const redisProblem = await redisReachable();
  if (!redisProblem) return describe;
  if (requireServices) throw new Error(`REQUIRE_SERVICES=1 and ${redisProblem}`);
  console.warn(`[scale-out] SKIPPED: ${redisProblem}. Start Redis (or set TEST_REDIS_URL) to run it.`);
  return describe.skip;
}
