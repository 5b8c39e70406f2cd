import { describe, expect, it } from 'vitest';
import { worksOfPages } from './work-pages';

const page = (ids: string[]) => ({ list: ids.map((id) => ({ id })), current: 1, pageSize: 2, total: 4 });

describe('worksOfPages', () => {
  it('joins the pages in order and keeps a work that moved to a later page only once', () => {
    expect(worksOfPages([page(['a', 'b']), page(['b', 'c'])]).map((work) => work.id)).toEqual(['a', 'b', 'c']);
    expect(worksOfPages(undefined)).toEqual([]);
  });
});
