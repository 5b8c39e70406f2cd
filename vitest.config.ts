import { defineConfig } from 'vitest/config';

/**
 * One runner for every suite. The server integration suite runs twice, once per database,
 * so every account rule is proven on SQLite and on PostgreSQL alike.
 */
const serverIntegration = ['apps/server/test/**/*.test.ts'];
const serverUnit = ['apps/server/test/unit/**/*.test.ts'];
const serverProcess = ['apps/server/test/process/**/*.test.ts'];
/** Faults of a database server (connections ended): SQLite has none to lose. */
const postgresOnly = ['apps/server/test/platform/db-connection-loss.test.ts'];

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/contracts/test/**/*.test.ts', ...serverUnit, 'apps/web/src/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'server-sqlite',
          include: serverIntegration,
          exclude: [...serverUnit, ...serverProcess, ...postgresOnly],
          env: { TEST_DB: 'sqlite' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: serverIntegration,
          exclude: [...serverUnit, ...serverProcess],
          env: { TEST_DB: 'postgres' },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: { name: 'server-process', include: serverProcess, testTimeout: 60_000, hookTimeout: 60_000 },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
