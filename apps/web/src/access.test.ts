import { describe, expect, it } from 'vitest';
import { computeAccess } from './access';

describe('computeAccess (spec §6)', () => {
  it('grants the dashboard only for the stored string "true"', () => {
    expect(computeAccess('true').canReadDashboard).toBe(true);
    expect(computeAccess('false').canReadDashboard).toBe(false);
    expect(computeAccess('TRUE').canReadDashboard).toBe(false);
    expect(computeAccess(null).canReadDashboard).toBe(false);
  });

  it('keeps the placeholder flags fixed', () => {
    expect(computeAccess('true')).toMatchObject({ canReadFoo: false, canUpdateFoo: true });
    expect(computeAccess(undefined)).toMatchObject({ canReadFoo: false, canUpdateFoo: true });
  });
});
