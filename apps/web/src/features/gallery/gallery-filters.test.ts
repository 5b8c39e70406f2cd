import { describe, expect, it } from 'vitest';
import { hasFilters, NO_FILTERS, profileQuery } from './gallery-filters';

describe('profileQuery', () => {
  it('sends only the filters that are set', () => {
    expect(profileQuery(NO_FILTERS, 1, 30)).toEqual({ current: 1, pageSize: 30 });
    expect(hasFilters(NO_FILTERS)).toBe(false);
    const filters = { templateId: 't1', range: ['2025-05-01', '2025-05-09'] as [string, string], keyword: ' 山水 ' };
    expect(profileQuery(filters, 2, 30, -480)).toEqual({
      current: 2,
      pageSize: 30,
      templateId: 't1',
      dateFrom: '2025-05-01',
      dateTo: '2025-05-09',
      tzOffset: -480,
      keyword: '山水',
    });
    expect(hasFilters({ ...NO_FILTERS, keyword: '猫' })).toBe(true);
  });
});
