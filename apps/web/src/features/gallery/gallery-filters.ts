import { displayZoneOffset } from '../../common/dayjs';
import type { MyWorksQuery } from '../../services/works';
/** The toolbar filters of 我的作品; the date range holds YYYY-MM-DD days. */
export interface GalleryFilters {
  templateId: string | undefined;
  range: [string, string] | null;
  keyword: string;
}

export const NO_FILTERS: GalleryFilters = { templateId: undefined, range: null, keyword: '' };

export function hasFilters(filters: GalleryFilters): boolean {
  return Boolean(filters.templateId || filters.range || filters.keyword);
}

/**
 * The /api/works/profile query of one page; empty filters are left out rather than sent blank. Days are in the
 * display zone (the grid groups by them too), so the range carries that zone's offset.
 */
export function profileQuery(
  filters: GalleryFilters,
  current: number,
  pageSize: number,
  tzOffset: number = displayZoneOffset(),
): MyWorksQuery {
  const query: MyWorksQuery = { current, pageSize };
  if (filters.templateId) query.templateId = filters.templateId;
  if (filters.range) {
    [query.dateFrom, query.dateTo] = filters.range;
    query.tzOffset = tzOffset;
  }
  const keyword = filters.keyword.trim();
  if (keyword) query.keyword = keyword;
  return query;
}
