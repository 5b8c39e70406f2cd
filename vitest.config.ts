import { defineConfig } from 'vitest/config';

/**
 * One runner for every suite. The server integration suite runs three times: embedded on SQLite, embedded on
 * PostgreSQL, and scale-out (PostgreSQL + Redis/BullMQ, an API app and a worker), so every rule is proven in both
 * modes on both databases.
 */
const serverIntegration = ['apps/server/test/**/*.test.ts'];
const serverUnit = ['apps/server/test/unit/**/*.test.ts'];
const serverProcess = ['apps/server/test/process/**/*.test.ts'];
/**
 * Faults of a database server (connections ended): SQLite has none to lose. Scale-out mode (several API processes
 * over one database and Redis) refuses SQLite.
 */
const postgresOnly = [
  'apps/server/test/platform/db-connection-loss.test.ts',
  'apps/server/test/platform/shared-state.test.ts',
];

/**
 * Each server test file builds its own app on its own database, data directory and Redis prefix, so files may share
 * a worker's loaded modules: importing the server once per worker instead of once per file halves these projects.
 */
const serverSuite = {
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Migrates and seeds one database per run; each file's app starts on a copy of it.
  globalSetup: ['apps/server/test/helpers/template-database.ts'],
};

export default defineConfig({
  test: {
    reporters: ['default'],
    // The server suites mostly wait on databases, Redis and child processes: three files at a time keep two cores busy.
    maxWorkers: 3,
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
          ...serverSuite,
        },
      },
      {
        test: {
          name: 'server-postgres',
          include: serverIntegration,
          exclude: [...serverUnit, ...serverProcess],
          env: { TEST_DB: 'postgres' },
          ...serverSuite,
        },
      },
      {
        test: {
          name: 'server-scaleout',
          include: serverIntegration,
          exclude: [...serverUnit, ...serverProcess, ...postgresOnly],
          env: { TEST_MODE: 'scaleout' },
          ...serverSuite,
        },
      },
      {
        test: {
          name: 'server-process',
          include: serverProcess,
          globalSetup: ['apps/server/test/helpers/build-server.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['apps/web/e2e/**/*.e2e.test.ts'],
          // Builds the server and starts one lane (a compiled server and a browser) per worker, which its journey
          // files share one after another (apps/web/e2e/lanes.ts).
          globalSetup: ['apps/web/e2e/lanes.ts'],
          // After the server suites, two journeys at a time.
          sequence: { groupOrder: 1 },
          maxWorkers: 2,
          // A page under load may take seconds to show what a poll waits for (as `visible` allows 15 s).
          expect: { poll: { timeout: 15_000 } },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // Builds the image and the stand-ins of the public base images, and runs deploy/compose.yaml in Docker:
          // last and alone, as it takes both cores for minutes (a cold build for tens of minutes).
          name: 'deploy',
          include: ['deploy/test/**/*.deploy.test.ts'],
          sequence: { groupOrder: 2 },
          maxWorkers: 1,
          testTimeout: 600_000,
          hookTimeout: 3_600_000,
        },
      },
    ],
  },
});
