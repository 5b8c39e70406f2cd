import { describe, expect, it } from 'vitest';
import { FIRST_VISIT_BUDGET_BYTES, measureFirstVisit, visitTable } from './first-visit';
import { setupJourney } from './harness';

describe('first load', () => {
  const journey = setupJourney();

  it('moves at most 275 KB for a first visit to the home page, compressed and cacheable', async () => {
    const visit = await measureFirstVisit(journey.browser, journey.server.baseUrl, '/');
    console.log(visitTable([visit]));
    for (const file of visit.files) console.log(`  ${file.name}  ${file.wire} B on the wire, ${file.raw} B raw`);

    // Every file of the page itself came compressed.
    for (const file of visit.files) expect(file.compressed, file.name).toBeLessThan(file.raw);
    expect(visit.files.some((file) => file.name.endsWith('.js'))).toBe(true);
    expect(visit.files.some((file) => file.name.endsWith('.css'))).toBe(true);
    expect(visit.wire).toBeLessThanOrEqual(FIRST_VISIT_BUDGET_BYTES);
  });
});
