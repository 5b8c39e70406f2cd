import { describe, expect, it } from 'vitest';
import { postgresReachable, redisReachable, requireServices } from '../helpers/services.js';

/**
 * CI sets REQUIRE_SERVICES=1: there a missing PostgreSQL or Redis fails the run.
 * On a developer's machine the missing service is reported in one line instead.
 */
describe('external services of the test suite', () => {
  for (const [name, check] of [
    ['PostgreSQL', postgresReachable],
    ['Redis', redisReachable],
  ] as const) {
    it(`${name} is reachable${requireServices ? ' (required)' : ''}`, async () => {
      const problem = await check();
      if (problem && !requireServices) {
        console.warn(`[services] ${problem}: its suites are skipped on this machine.`);
        return;
      }
      expect(problem).toBeNull();
    });
  }
});
