import { existsSync } from 'node:fs';
import path from 'node:path';
import { FIRST_VISIT_BUDGET_BYTES, measureFirstVisit, visitTable } from '../e2e/first-visit';
import { adminToken, launchBrowser, REPO_ROOT, startServer } from '../e2e/harness';

/**
 * Figures, printed, never asserted (the budget is asserted by e2e/first-load.e2e.test.ts): what a first visit
 * moves for `/` (signed out), `/draw` and `/myGallery` (signed in), against the real server and the built app.
 */
if (!existsSync(path.join(REPO_ROOT, 'apps/web/dist/index.html'))) {
  throw new Error('apps/web/dist is missing: run npm run build -w apps/web first');
}

const server = await startServer();
const browser = await launchBrowser();
try {
  const token = await adminToken(server);
  const visits = [
    await measureFirstVisit(browser, server.baseUrl, '/'),
    await measureFirstVisit(browser, server.baseUrl, '/draw', token),
    await measureFirstVisit(browser, server.baseUrl, '/myGallery', token),
  ];
  console.log(
    `First visits (page + scripts + style sheets; budget for / is ${FIRST_VISIT_BUDGET_BYTES / 1000} kB on the wire)`,
  );
  console.log(visitTable(visits));
} finally {
  await browser.close();
  await server.stop();
}
