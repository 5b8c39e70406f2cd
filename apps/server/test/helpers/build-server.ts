import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Global setup of the server-process project: builds apps/server/dist once (`npm run build:server`, seconds), so
 * the tests that run the compiled processes under plain node run what the sources say now.
 */
export default function buildServer(): void {
  execFileSync('npm', ['run', 'build:server'], {
    cwd: path.resolve(import.meta.dirname, '../../../..'),
    stdio: 'inherit',
  });
}
